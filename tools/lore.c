// SPDX-License-Identifier: GPL-2.0-only
/*
 * lore.c - threads and searches of a public-inbox server: libcurl, zlib.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <curl/curl.h>
#include <zlib.h>

#include "lore.h"
#include "progress.h"
#include "run.h"
#include "util.h"
#include "banned.h"

static const char default_base[] = "https://lore.kernel.org/all/";

static char *git_config_lore(void)
{
	const char *argv[] = { "git", "config", "--get", "kseries.lore", NULL };
	struct run_opts o = { 0 };
	GString *out = g_string_new(NULL);

	/* exit 1: not set; anything else is not ours to report */
	if (run_output(&o, argv, out, NULL) != 0) {
		g_string_free(out, TRUE);
		return NULL;
	}
	g_strstrip(out->str);
	if (!out->str[0]) {
		g_string_free(out, TRUE);
		return NULL;
	}
	return g_string_free(out, FALSE);
}

char *lore_base(void)
{
	const char *env = getenv("KSERIES_LORE");
	char *base = env && *env ? g_strdup(env) : git_config_lore();

	if (!base)
		base = g_strdup(default_base);
	if (!starts_with(base, "https://") && !starts_with(base, "http://")) {
		error("bad public-inbox URL '%s': want http:// or https://",
		      base);
		g_free(base);
		return NULL;
	}
	for (const char *c = base; *c; c++)
		if ((unsigned char)*c <= ' ' || (unsigned char)*c >= 0x7f ||
		    strchr("\"<>\\^`{|}", *c)) {
			error("bad public-inbox URL '%s': characters a URL cannot hold",
			      base);
			g_free(base);
			return NULL;
		}
	if (!g_str_has_suffix(base, "/")) {
		char *b = g_strconcat(base, "/", NULL);

		g_free(base);
		base = b;
	}
	return base;
}

/* RFC 3986 2.3 unreserved characters stay, as does '@' (as b4 does). */
static void append_escaped(GString *s, const char *p, bool plus)
{
	for (; *p; p++) {
		unsigned char c = (unsigned char)*p;

		if (g_ascii_isalnum(c) || strchr("-._~@", c))
			g_string_append_c(s, (char)c);
		else if (c == ' ' && plus)
			g_string_append_c(s, '+');
		else
			g_string_append_printf(s, "%%%02X", c);
	}
}

char *lore_thread_url(const char *base, const char *msgid)
{
	GString *s = g_string_new(base);
	size_t len = strlen(msgid);

	if (len >= 2 && msgid[0] == '<' && msgid[len - 1] == '>') {
		char *m = g_strndup(msgid + 1, len - 2);

		append_escaped(s, m, false);
		g_free(m);
	} else {
		append_escaped(s, msgid, false);
	}
	g_string_append(s, "/t.mbox.gz");
	return g_string_free(s, FALSE);
}

char *lore_search_url(const char *base, const char *query)
{
	GString *s = g_string_new(base);

	g_string_append(s, "?x=m&t=1&q=");
	append_escaped(s, query, true);
	return g_string_free(s, FALSE);
}

int lore_gunzip(const char *buf, size_t len, size_t max, const char *name,
		GString *out)
{
	z_stream z = { 0 };
	unsigned char chunk[65536];
	int zret = Z_OK;
	int ret = 0;

	/* 16 + MAX_WBITS: a gzip header, not zlib's */
	if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK)
		return error("cannot inflate '%s': %s", name,
			     z.msg ? z.msg : "zlib init");
	z.next_in = (unsigned char *)buf;
	z.avail_in = (uInt)len;
	while (zret != Z_STREAM_END) {
		z.next_out = chunk;
		z.avail_out = sizeof(chunk);
		zret = inflate(&z, Z_NO_FLUSH);
		if (zret != Z_OK && zret != Z_STREAM_END) {
			ret = error("'%s': bad gzip data%s%s", name,
				    z.msg ? ": " : "", z.msg ? z.msg : "");
			break;
		}
		g_string_append_len(out, (const char *)chunk,
				    (gssize)(sizeof(chunk) - z.avail_out));
		if (out->len > max) {
			ret = error("'%s': over %zu MiB inflated", name,
				    max >> 20);
			break;
		}
		if (zret == Z_OK && !z.avail_in && z.avail_out) {
			ret = error("'%s': truncated gzip data", name);
			break;
		}
		/* concatenated gzip members (RFC 1952 2.2) */
		if (zret == Z_STREAM_END && z.avail_in) {
			if (inflateReset(&z) != Z_OK) {
				ret = error("'%s': bad gzip data", name);
				break;
			}
			zret = Z_OK;
		}
	}
	inflateEnd(&z);
	return ret;
}

struct sink {
	GString *buf;
	bool over;
};

static size_t on_data(char *p, size_t size, size_t n, void *data)
{
	struct sink *sk = data;

	if (sk->buf->len + size * n > LORE_MAX_GZ) {
		sk->over = true;
		return 0;
	}
	g_string_append_len(sk->buf, p, (gssize)(size * n));
	return size * n;
}

static int on_progress(void *data, curl_off_t dltotal, curl_off_t dlnow,
		       curl_off_t ultotal, curl_off_t ulnow)
{
	progress_feed(NULL, 0);
	return 0;
}

static unsigned total_timeout(void)
{
	const char *t = getenv("KSERIES_FETCH_TIMEOUT");
	char *end;
	long v;

	if (!t || !*t)
		return LORE_TIMEOUT;
	v = strtol(t, &end, 10);
	return *end || v < 1 || v > 3600 ? LORE_TIMEOUT : (unsigned)v;
}

static int once(void)
{
	static int done;

	if (!done) {
		if (curl_global_init(CURL_GLOBAL_DEFAULT))
			return error("cannot initialise libcurl");
		done = 1;
	}
	return 0;
}

int lore_get_mbox(const char *url, bool post, GString *out)
{
	struct sink sk = { g_string_new(NULL), false };
	char errbuf[CURL_ERROR_SIZE] = "";
	long status = 0;
	CURLcode rc;
	CURL *c;
	int ret = -1;

	if (once() < 0 || !(c = curl_easy_init())) {
		g_string_free(sk.buf, TRUE);
		return error("cannot initialise libcurl");
	}
	curl_easy_setopt(c, CURLOPT_URL, url);
	curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 1L);
	curl_easy_setopt(c, CURLOPT_MAXREDIRS, 5L);
	curl_easy_setopt(c, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT, (long)LORE_CONNECT_TIMEOUT);
	curl_easy_setopt(c, CURLOPT_TIMEOUT, (long)total_timeout());
	curl_easy_setopt(c, CURLOPT_MAXFILESIZE_LARGE,
			 (curl_off_t)LORE_MAX_GZ);
	curl_easy_setopt(c, CURLOPT_USERAGENT, "kseries/0.1");
	curl_easy_setopt(c, CURLOPT_ERRORBUFFER, errbuf);
	curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_data);
	curl_easy_setopt(c, CURLOPT_WRITEDATA, &sk);
	curl_easy_setopt(c, CURLOPT_XFERINFOFUNCTION, on_progress);
	curl_easy_setopt(c, CURLOPT_NOPROGRESS, 0L);
	if (post) {
		curl_easy_setopt(c, CURLOPT_POSTFIELDS, "");
		curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE, 0L);
	}
	progress_begin(url);
	rc = curl_easy_perform(c);
	progress_end();
	curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);
	if (sk.over || rc == CURLE_FILESIZE_EXCEEDED)
		error("'%s': answer over %u MiB", url, LORE_MAX_GZ >> 20);
	else if (rc != CURLE_OK)
		error("cannot fetch '%s': %s", url,
		      errbuf[0] ? errbuf : curl_easy_strerror(rc));
	else if (status == 404)
		ret = 1;
	else if (status != 200)
		error("cannot fetch '%s': HTTP %ld", url, status);
	else
		ret = lore_gunzip(sk.buf->str, sk.buf->len, LORE_MAX_MBOX, url,
				  out);
	curl_easy_cleanup(c);
	g_string_free(sk.buf, TRUE);
	return ret;
}
