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

int run_argv(const char *const *argv, const struct run_opts *opts,
	     struct run_result *res)
{
	static const struct run_opts none;
	const struct run_opts *o = opts ? opts : &none;
	int in[2] = { -1, -1 }, out[2] = { -1, -1 }, err[2] = { -1, -1 };
	size_t in_done = 0;
	long long deadline = o->timeout ? now_ms() + o->timeout * 1000LL : 0;
	char **envp = NULL;
	pid_t pid;
	int wstatus;

	memset(res, 0, sizeof(*res));
	res->status = -1;
	if ((o->in && pipe(in) < 0) ||
	    ((o->capture_out || o->merge_err) && pipe(out) < 0) ||
	    (o->capture_err && !o->merge_err && pipe(err) < 0)) {
		error_errno("cannot create a pipe for '%s'", argv[0]);
		goto err_close;
	}
	envp = run_child_env(o);
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		error_errno("cannot fork for '%s'", argv[0]);
		goto err_close;
	}
	if (pid == 0) {
		if (in[1] >= 0)
			close(in[1]);
		if (out[0] >= 0)
			close(out[0]);
		if (err[0] >= 0)
			close(err[0]);
		child(argv, o, envp, in[0], out[1], err[1]);
	}
	g_strfreev(envp);
	envp = NULL;
	if (in[0] >= 0)
		close(in[0]);
	if (out[1] >= 0)
		close(out[1]);
	if (err[1] >= 0)
		close(err[1]);
	in[0] = out[1] = err[1] = -1;
	if (out[0] >= 0) {
		res->out = g_string_new(NULL);
		set_cloexec_nonblock(out[0]);
	}
	if (err[0] >= 0) {
		res->err = g_string_new(NULL);
		set_cloexec_nonblock(err[0]);
	}
	if (in[1] >= 0) {
		set_cloexec_nonblock(in[1]);
		if (!o->in_len) {
			close(in[1]);
			in[1] = -1;
		}
	}

	while (in[1] >= 0 || out[0] >= 0 || err[0] >= 0) {
		struct pollfd pfd[3];
		int nfd = 0, timeout = -1, n;

		if (in[1] >= 0)
			pfd[nfd++] = (struct pollfd){ in[1], POLLOUT, 0 };
		if (out[0] >= 0)
			pfd[nfd++] = (struct pollfd){ out[0], POLLIN, 0 };
		if (err[0] >= 0)
			pfd[nfd++] = (struct pollfd){ err[0], POLLIN, 0 };
		if (deadline) {
			long long left = deadline - now_ms();

			if (left <= 0) {
				res->timed_out = true;
				kill(pid, SIGKILL);
				break;
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
			break;
		}
		for (int i = 0; i < nfd; i++) {
			char buf[65536];
			ssize_t r;

			if (!pfd[i].revents)
				continue;
			if (pfd[i].fd == in[1]) {
				r = write(in[1], o->in + in_done,
					  o->in_len - in_done);
				if (r > 0)
					in_done += (size_t)r;
				if ((r < 0 && errno != EAGAIN) ||
				    in_done == o->in_len) {
					close(in[1]);
					in[1] = -1;
				}
				continue;
			}
			r = read(pfd[i].fd, buf, sizeof(buf));
			if (r > 0) {
				if (run_progress_hook)
					run_progress_hook(buf, (size_t)r);
				g_string_append_len(pfd[i].fd == out[0] ?
						    res->out : res->err,
						    buf, r);
			} else if (r == 0 || errno != EAGAIN) {
				close(pfd[i].fd);
				if (pfd[i].fd == out[0])
					out[0] = -1;
				else
					err[0] = -1;
			}
		}
	}
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
	for (int i = 0; i < 2; i++) {
		if (in[i] >= 0)
			close(in[i]);
		if (out[i] >= 0)
			close(out[i]);
		if (err[i] >= 0)
			close(err[i]);
	}
	return 0;

err_close:
	g_strfreev(envp);
	for (int i = 0; i < 2; i++) {
		if (in[i] >= 0)
			close(in[i]);
		if (out[i] >= 0)
			close(out[i]);
		if (err[i] >= 0)
			close(err[i]);
	}
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
