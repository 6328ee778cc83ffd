// SPDX-License-Identifier: GPL-2.0-only
/*
 * run.c - child processes with argv arrays, pipes and a timeout.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "run.h"
#include "util.h"
#include "banned.h"

static void set_cloexec_nonblock(int fd)
{
	fcntl(fd, F_SETFD, FD_CLOEXEC);
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/*
 * What a child must not inherit from our caller: git's own list of the
 * variables that point git at a repository (local_repo_env in git's
 * environment.c; git clears them itself when it moves into another
 * repository), GIT_NAMESPACE (it moves every ref), and the editors,
 * which would take over the non-interactive ones kseries configures
 * (core.editor for b4 prep). A child that needs one of them gets it
 * through run_opts.env, explicitly.
 */
static const char *const scrubbed[] = {
	"GIT_ALTERNATE_OBJECT_DIRECTORIES",
	"GIT_CONFIG",
	"GIT_CONFIG_PARAMETERS",
	"GIT_CONFIG_COUNT",
	"GIT_OBJECT_DIRECTORY",
	"GIT_DIR",
	"GIT_WORK_TREE",
	"GIT_IMPLICIT_WORK_TREE",
	"GIT_GRAFT_FILE",
	"GIT_INDEX_FILE",
	"GIT_NO_REPLACE_OBJECTS",
	"GIT_NO_LAZY_FETCH",
	"GIT_REPLACE_REF_BASE",
	"GIT_PREFIX",
	"GIT_INTERNAL_SUPER_PREFIX",
	"GIT_SHALLOW_FILE",
	"GIT_COMMON_DIR",
	"GIT_NAMESPACE",
	"GIT_EDITOR",
	"GIT_SEQUENCE_EDITOR",
};

/* The prefixes of scrubbed families: GIT_CONFIG_KEY_<n>, _VALUE_<n>. */
static const char *const scrubbed_prefix[] = {
	"GIT_CONFIG_KEY_",
	"GIT_CONFIG_VALUE_",
};

/* Config that user files cannot change, for run_opts.git_pristine. */
static const char *const pristine[] = {
	"GIT_CONFIG_NOSYSTEM=1",
	"GIT_CONFIG_GLOBAL=/dev/null",
	/* read even without a global config: $XDG_CONFIG_HOME/git/attributes */
	"GIT_CONFIG_PARAMETERS='core.attributesfile'='/dev/null'",
};

/* The length of the NAME of "NAME=VALUE" (or of all of s). */
static size_t env_name_len(const char *s)
{
	const char *eq = strchr(s, '=');

	return eq ? (size_t)(eq - s) : strlen(s);
}

static bool env_in(const char *var, size_t n, const char *const *list,
		   size_t count)
{
	for (size_t i = 0; i < count && list[i]; i++)
		if (env_name_len(list[i]) == n && !strncmp(list[i], var, n))
			return true;
	return false;
}

static bool env_scrubbed(const char *var, size_t n)
{
	if (env_in(var, n, scrubbed, G_N_ELEMENTS(scrubbed)))
		return true;
	for (size_t i = 0; i < G_N_ELEMENTS(scrubbed_prefix); i++)
		if (starts_with(var, scrubbed_prefix[i]))
			return true;
	return false;
}

char **run_child_env(const struct run_opts *o)
{
	extern char **environ;
	GPtrArray *env = g_ptr_array_new();
	size_t nadd = 0;

	while (o->env && o->env[nadd])
		nadd++;
	for (char **e = environ; e && *e; e++) {
		size_t n = env_name_len(*e);

		if (env_scrubbed(*e, n) ||
		    (o->git_pristine &&
		     env_in(*e, n, pristine, G_N_ELEMENTS(pristine))) ||
		    env_in(*e, n, o->env, nadd))
			continue;
		g_ptr_array_add(env, g_strdup(*e));
	}
	for (size_t i = 0; o->git_pristine && i < G_N_ELEMENTS(pristine); i++)
		if (!env_in(pristine[i], env_name_len(pristine[i]), o->env,
			    nadd))
			g_ptr_array_add(env, g_strdup(pristine[i]));
	for (size_t i = 0; i < nadd; i++)
		g_ptr_array_add(env, g_strdup(o->env[i]));
	g_ptr_array_add(env, NULL);
	return (char **)g_ptr_array_free(env, FALSE);
}

static G_GNUC_NORETURN void child(const char *const *argv,
				  const struct run_opts *o, char **envp,
				  int in_fd, int out_fd, int err_fd)
{
	if (in_fd >= 0)
		dup2(in_fd, 0);
	else {
		int null = open("/dev/null", O_RDONLY);

		if (null >= 0)
			dup2(null, 0);
	}
	if (out_fd >= 0)
		dup2(out_fd, 1);
	if (o->merge_err && out_fd >= 0)
		dup2(out_fd, 2);
	else if (err_fd >= 0)
		dup2(err_fd, 2);
	if (o->dir && chdir(o->dir) < 0) {
		fprintf(stderr, "kseries: error: cannot chdir to '%s': %s\n",
			o->dir, strerror(errno));
		_exit(127);
	}
	signal(SIGPIPE, SIG_DFL);
	execvpe(argv[0], (char *const *)argv, envp);
	fprintf(stderr, "kseries: error: cannot run '%s': %s\n", argv[0],
		strerror(errno));
	_exit(127);
}

void (*run_progress_hook)(const char *buf, size_t len);

/* The pipes of one child: parent and child ends, -1 when closed. */
struct child_io {
	int in[2], out[2], err[2];
	size_t in_done;
};

static void io_close(int fd[2])
{
	for (int i = 0; i < 2; i++) {
		if (fd[i] >= 0)
			close(fd[i]);
		fd[i] = -1;
	}
}

static void io_close_all(struct child_io *io)
{
	io_close(io->in);
	io_close(io->out);
	io_close(io->err);
}

/* The pipes opts asks for. */
static int io_open(struct child_io *io, const struct run_opts *o,
		   const char *prog)
{
	if ((o->in && pipe(io->in) < 0) ||
	    ((o->capture_out || o->merge_err) && pipe(io->out) < 0) ||
	    (o->capture_err && !o->merge_err && pipe(io->err) < 0))
		return error_errno("cannot create a pipe for '%s'", prog);
	return 0;
}

/*
 * Forks the child; in the parent, closes the child's ends, makes the
 * parent's non-blocking and res's strings for them. Returns the pid, or
 * -1 with an error printed.
 */
static pid_t spawn(const char *const *argv, const struct run_opts *o,
		   struct child_io *io, struct run_result *res)
{
	char **envp = run_child_env(o);
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		g_strfreev(envp);
		return error_errno("cannot fork for '%s'", argv[0]);
	}
	if (pid == 0) {
		if (io->in[1] >= 0)
			close(io->in[1]);
		if (io->out[0] >= 0)
			close(io->out[0]);
		if (io->err[0] >= 0)
			close(io->err[0]);
		child(argv, o, envp, io->in[0], io->out[1], io->err[1]);
	}
	g_strfreev(envp);
	if (io->in[0] >= 0)
		close(io->in[0]);
	if (io->out[1] >= 0)
		close(io->out[1]);
	if (io->err[1] >= 0)
		close(io->err[1]);
	io->in[0] = io->out[1] = io->err[1] = -1;
	if (io->out[0] >= 0) {
		res->out = g_string_new(NULL);
		set_cloexec_nonblock(io->out[0]);
	}
	if (io->err[0] >= 0) {
		res->err = g_string_new(NULL);
		set_cloexec_nonblock(io->err[0]);
	}
	if (io->in[1] >= 0) {
		set_cloexec_nonblock(io->in[1]);
		if (!o->in_len) {
			close(io->in[1]);
			io->in[1] = -1;
		}
	}
	return pid;
}

/* One ready descriptor: stdin written to, or an output read. */
static void io_step(struct child_io *io, const struct run_opts *o, int fd,
		    struct run_result *res)
{
	char buf[65536];
	ssize_t r;

	if (fd == io->in[1]) {
		r = write(fd, o->in + io->in_done, o->in_len - io->in_done);
		if (r > 0)
			io->in_done += (size_t)r;
		if ((r < 0 && errno != EAGAIN) || io->in_done == o->in_len) {
			close(fd);
			io->in[1] = -1;
		}
		return;
	}
	r = read(fd, buf, sizeof(buf));
	if (r > 0) {
		if (run_progress_hook)
			run_progress_hook(buf, (size_t)r);
		g_string_append_len(fd == io->out[0] ? res->out : res->err,
				    buf, r);
	} else if (r == 0 || errno != EAGAIN) {
		close(fd);
		if (fd == io->out[0])
			io->out[0] = -1;
		else
			io->err[0] = -1;
	}
}

/*
 * Feeds stdin and collects the outputs until the child closes them; at
 * the deadline (0: none) or when poll fails, the child is killed.
 */
static void pump(struct child_io *io, const struct run_opts *o, pid_t pid,
		 long long deadline, struct run_result *res)
{
	while (io->in[1] >= 0 || io->out[0] >= 0 || io->err[0] >= 0) {
		struct pollfd pfd[3];
		int nfd = 0, timeout = -1, n;

		if (io->in[1] >= 0)
			pfd[nfd++] = (struct pollfd){ io->in[1], POLLOUT, 0 };
		if (io->out[0] >= 0)
			pfd[nfd++] = (struct pollfd){ io->out[0], POLLIN, 0 };
		if (io->err[0] >= 0)
			pfd[nfd++] = (struct pollfd){ io->err[0], POLLIN, 0 };
		if (deadline) {
			long long left = deadline - now_ms();

			if (left <= 0) {
				res->timed_out = true;
				kill(pid, SIGKILL);
				return;
			}
			timeout = left > 1000 ? 1000 : (int)left;
		}
		if (run_progress_hook && (timeout < 0 || timeout > 1000))
			timeout = 1000;
		n = poll(pfd, (nfds_t)nfd, timeout);
		if (n < 0 && errno == EINTR)
			continue;
		if (n == 0 && run_progress_hook)
			run_progress_hook(NULL, 0);
		if (n < 0) {
			error_errno("poll");
			kill(pid, SIGKILL);
			return;
		}
		for (int i = 0; i < nfd; i++)
			if (pfd[i].revents)
				io_step(io, o, pfd[i].fd, res);
	}
}

int run_argv(const char *const *argv, const struct run_opts *opts,
	     struct run_result *res)
{
	static const struct run_opts none;
	const struct run_opts *o = opts ? opts : &none;
	struct child_io io = { { -1, -1 }, { -1, -1 }, { -1, -1 }, 0 };
	long long deadline = o->timeout ? now_ms() + o->timeout * 1000LL : 0;
	pid_t pid;
	int wstatus;

	memset(res, 0, sizeof(*res));
	res->status = -1;
	if (io_open(&io, o, argv[0]) < 0)
		goto err_close;
	pid = spawn(argv, o, &io, res);
	if (pid < 0)
		goto err_close;
	pump(&io, o, pid, deadline, res);
	while (waitpid(pid, &wstatus, 0) < 0) {
		if (errno != EINTR) {
			error_errno("waitpid");
			goto err_close;
		}
	}
	if (WIFEXITED(wstatus))
		res->status = WEXITSTATUS(wstatus);
	else if (WIFSIGNALED(wstatus))
		res->status = 128 + WTERMSIG(wstatus);
	io_close_all(&io);
	return 0;

err_close:
	io_close_all(&io);
	run_result_release(res);
	return -1;
}

void run_result_release(struct run_result *res)
{
	if (res->out)
		g_string_free(res->out, TRUE);
	if (res->err)
		g_string_free(res->err, TRUE);
	res->out = res->err = NULL;
}

int run_output(const struct run_opts *opts, const char *const *argv,
	       GString *out, GString *err)
{
	struct run_opts o = *opts;
	struct run_result r;
	int status;

	o.capture_out = true;
	o.capture_err = true;
	o.merge_err = false;
	if (run_argv(argv, &o, &r) < 0)
		return -1;
	if (out)
		g_string_append_len(out, r.out->str, (gssize)r.out->len);
	if (err)
		g_string_append_len(err, r.err->str, (gssize)r.err->len);
	status = r.status;
	run_result_release(&r);
	return status;
}

int run_capture_opts(const struct run_opts *opts, const char *const *argv,
		     char **outp, GString *log)
{
	GString *out = g_string_new(NULL), *err = g_string_new(NULL);
	int status;

	if (outp)
		*outp = NULL;
	status = run_output(opts, argv, out, err);
	if (log)
		g_string_append_len(log, err->str, (gssize)err->len);
	if (status != 0) {
		if (status > 0 && log) {
			g_string_append_len(log, out->str, (gssize)out->len);
		} else if (status > 0) {
			GString *cmd = g_string_new(argv[0]);

			/* at most 200 bytes of it: an argument may be huge */
			for (const char *const *a = argv + 1; *a && cmd->len < 200; a++)
				g_string_append_printf(cmd, " %.*s", 200, *a);
			if (cmd->len > 200) {
				g_string_truncate(cmd, 200);
				g_string_append(cmd, "...");
			}
			g_strchomp(err->str);
			g_strchomp(out->str);
			error("'%s' failed (exit %d)%s%s%s%s", cmd->str, status,
			      err->str[0] || out->str[0] ? ": " : "", err->str,
			      err->str[0] && out->str[0] ? "\n" : "", out->str);
			g_string_free(cmd, TRUE);
		}
		g_string_free(out, TRUE);
		g_string_free(err, TRUE);
		return -1;
	}
	while (out->len && out->str[out->len - 1] == '\n')
		g_string_truncate(out, out->len - 1);
	if (outp)
		*outp = g_string_free(out, FALSE);
	else
		g_string_free(out, TRUE);
	g_string_free(err, TRUE);
	return 0;
}

int run_capture(const char *dir, const char *const *argv, char **outp)
{
	struct run_opts o = { .dir = dir };

	return run_capture_opts(&o, argv, outp, NULL);
}

int run_passthrough(const char *dir, const char *const *argv)
{
	struct run_opts o = { .dir = dir };
	struct run_result r;

	if (run_argv(argv, &o, &r) < 0)
		return -1;
	return r.status;
}

bool have_program(const char *name)
{
	char *p = g_find_program_in_path(name);
	bool ok = p != NULL;

	g_free(p);
	return ok;
}
