// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * --json's values: strace's notation of an argument, a result or a
 * siginfo read back into a JSON value, beside the text it came from.
 * The decoders write strace's text (one form for the trace and for
 * --json); this reads that text, whose grammar is small and regular:
 *
 *   3                    a number           3
 *   NULL                                    null
 *   "ab\n"...            a string           {"string":"ab\n","truncated":true}
 *   "\377"               not UTF-8          {"hex":"ff"}
 *   O_RDONLY|O_CLOEXEC   names, flags       {"names":["O_RDONLY","O_CLOEXEC"]}
 *   {st_mode=..., ...}   a structure        {"struct":{"st_mode":...},"more":true}
 *   [1, 2]  [USR1 TERM]  an array           {"array":[1,2]}
 *   ~[RTMIN]             a complement       {"not":{"array":[...]}}
 *   makedev(0x1, 0x3)    a macro            {"call":"makedev","args":[1,3]}
 *   3</etc/passwd>       -y, -Y             {"decorated":{"value":3,"with":"/etc/passwd"}}
 *   A or B               names of a number  {"either":["A","B"]}
 *   0x7ff0 /\* 3 vars *\/  a comment         {"comment":"3 vars","value":140...}
 *   [3] => [4]           in, then out       {"changed":{"from":...,"to":...}}
 *   child_stack=NULL     a named argument   {"name":"child_stack","value":null}
 *
 * Numbers are written as exact integers (hex and octal read), so values
 * past 2^53 stay exact in the text of the JSON.  A text this grammar does
 * not cover (strace's few expressions, such as WIFEXITED(s) && ...) has no
 * "value": the consumer has the text.  utrace(1) documents the schema.
 */
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

struct jp {
	const char *s, *end;
	struct sbuf *out;
	int depth;
};

#define JP_MAX_DEPTH	64

static bool jp_value(struct jp *p);

static bool at(const struct jp *p, const char *lit)
{
	size_t n = strlen(lit);

	return (size_t)(p->end - p->s) >= n && !memcmp(p->s, lit, n);
}

static bool eat(struct jp *p, const char *lit)
{
	if (!at(p, lit))
		return false;
	p->s += strlen(lit);
	return true;
}

static bool is_name_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '?' ||
	       c == '&' || c == '.';
}

/* A number of strace's: decimal, 0x hex, 0 octal; an exact integer. */
static bool jp_number(struct jp *p)
{
	const char *q = p->s;
	bool neg = false;
	unsigned long long v;
	char buf[32], *e;
	size_t n;

	if (q < p->end && *q == '-') {
		neg = true;
		q++;
	}
	if (q >= p->end || !isdigit((unsigned char)*q))
		return false;
	n = (size_t)(p->end - q) < sizeof(buf) - 1 ?
	    (size_t)(p->end - q) : sizeof(buf) - 1;
	memcpy(buf, q, n);
	buf[n] = '\0';
	errno = 0;
	v = strtoull(buf, &e, 0);
	/* 1<<TCP_LISTEN is a name, not the number 1. */
	if (errno || e == buf || is_name_char(*e) || (e[0] == '<' && e[1] == '<'))
		return false;
	p->s = q + (e - buf);
	if (neg)
		sb_printf(p->out, "-%llu", v);
	else
		sb_printf(p->out, "%llu", v);
	return true;
}

/* Well-formed UTF-8 (no overlongs, no surrogates): JSON text as it is. */
static bool utf8_ok(const unsigned char *s, size_t n)
{
	size_t i = 0;

	while (i < n) {
		unsigned c = s[i], need, cp, k;

		if (c < 0x80) {
			i++;
			continue;
		}
		if (c >= 0xc2 && c <= 0xdf) {
			need = 1;
			cp = c & 0x1f;
		} else if (c >= 0xe0 && c <= 0xef) {
			need = 2;
			cp = c & 0x0f;
		} else if (c >= 0xf0 && c <= 0xf4) {
			need = 3;
			cp = c & 0x07;
		} else {
			return false;
		}
		if (i + need >= n)
			return false;
		for (k = 1; k <= need; k++) {
			if ((s[i + k] & 0xc0) != 0x80)
				return false;
			cp = cp << 6 | (s[i + k] & 0x3f);
		}
		if ((need == 2 && (cp < 0x800 || (cp >= 0xd800 &&
						   cp <= 0xdfff))) ||
		    (need == 3 && (cp < 0x10000 || cp > 0x10ffff)))
			return false;
		i += need + 1;
	}
	return true;
}

/* A quoted string of strace's, its escapes undone; "..." after it. */
static bool jp_string(struct jp *p)
{
	struct sbuf bytes = { 0 };
	const char *q = p->s + 1;
	bool ok = false;
	size_t i;

	while (q < p->end && *q != '"') {
		unsigned char c = (unsigned char)*q++;

		if (c != '\\') {
			sb_putc(&bytes, (char)c);
			continue;
		}
		if (q >= p->end)
			goto out;
		c = (unsigned char)*q++;
		switch (c) {
		case 'n': sb_putc(&bytes, '\n'); continue;
		case 't': sb_putc(&bytes, '\t'); continue;
		case 'r': sb_putc(&bytes, '\r'); continue;
		case 'v': sb_putc(&bytes, '\v'); continue;
		case 'f': sb_putc(&bytes, '\f'); continue;
		case '"': case '\\': sb_putc(&bytes, (char)c); continue;
		case 'x': {
			unsigned v = 0;
			int k;

			for (k = 0; k < 2 && q < p->end &&
			     isxdigit((unsigned char)*q); k++, q++)
				v = v * 16 + (unsigned)(isdigit((unsigned char)*q) ?
					*q - '0' : (tolower((unsigned char)*q) - 'a' + 10));
			if (!k)
				goto out;
			sb_putc(&bytes, (char)v);
			continue;
		}
		default:
			if (c >= '0' && c <= '7') {
				unsigned v = c - '0';
				int k;

				for (k = 1; k < 3 && q < p->end && *q >= '0' &&
				     *q <= '7'; k++, q++)
					v = v * 8 + (unsigned)(*q - '0');
				sb_putc(&bytes, (char)v);
				continue;
			}
			goto out;
		}
	}
	if (q >= p->end)
		goto out;
	p->s = q + 1;
	if (utf8_ok((const unsigned char *)bytes.p, bytes.len)) {
		sb_puts(p->out, "{\"string\":\"");
		for (i = 0; i < bytes.len; i++) {
			unsigned char c = (unsigned char)bytes.p[i];

			if (c == '"' || c == '\\')
				sb_printf(p->out, "\\%c", c);
			else if (c < 0x20 || c == 0x7f)
				sb_printf(p->out, "\\u%04x", c);
			else
				sb_putc(p->out, (char)c);
		}
		sb_putc(p->out, '"');
	} else {
		sb_puts(p->out, "{\"hex\":\"");
		for (i = 0; i < bytes.len; i++)
			sb_printf(p->out, "%02x", (unsigned char)bytes.p[i]);
		sb_putc(p->out, '"');
	}
	if (eat(p, "..."))
		sb_puts(p->out, ",\"truncated\":true");
	sb_putc(p->out, '}');
	ok = true;
out:
	sb_free(&bytes);
	return ok;
}

/* A name of a constant or flag: O_RDONLY, 1<<TCP_LISTEN, 1<<(X-1). */
static bool jp_name(struct jp *p)
{
	const char *q = p->s;

	if (at(p, "1<<")) {
		q += 3;
		if (q < p->end && *q == '(') {
			while (q < p->end && *q != ')')
				q++;
			if (q >= p->end)
				return false;
			q++;
		} else {
			while (q < p->end && is_name_char(*q))
				q++;
		}
	} else {
		/* strace's -ENOENT (a netlink error) */
		if (q + 1 < p->end && *q == '-' && isalpha((unsigned char)q[1]))
			q++;
		if (q < p->end && isdigit((unsigned char)*q))
			return false;
		while (q < p->end && is_name_char(*q))
			q++;
	}
	if (q == p->s || q == p->s + 3 * at(p, "1<<") ||
	    (q == p->s + 1 && *p->s == '-'))
		return false;
	sb_json_str(p->out, p->s, (size_t)(q - p->s));
	p->s = q;
	return true;
}

/*
 * NAME|NAME|0x10: names and numbers joined by '|'; NAME or NAME: the
 * names one number has (an ioctl's request that drivers share).
 */
static bool jp_names(struct jp *p)
{
	enum { SEP_NONE, SEP_OR, SEP_EITHER } sep = SEP_NONE;
	struct sbuf *out = p->out, items = { 0 };
	bool ok = false;

	p->out = &items;
	for (;;) {
		if (items.len)
			sb_putc(&items, ',');
		if (!jp_number(p) && !jp_name(p))
			goto done;
		if (sep != SEP_EITHER && eat(p, "|"))
			sep = SEP_OR;
		else if (sep != SEP_OR && eat(p, " or "))
			sep = SEP_EITHER;
		else
			break;
	}
	ok = true;
done:
	p->out = out;
	if (ok) {
		sb_puts(out, sep == SEP_EITHER ? "{\"either\":[" :
			"{\"names\":[");
		sb_putn(out, items.p, items.len);
		sb_puts(out, "]}");
	}
	sb_free(&items);
	return ok;
}

/* NAME(arg, ...): strace's macros (makedev, inet_addr, htons ...). */
static bool jp_call(struct jp *p, const char *name, size_t n)
{
	bool first = true;

	sb_puts(p->out, "{\"call\":");
	sb_json_str(p->out, name, n);
	sb_puts(p->out, ",\"args\":[");
	if (!eat(p, ")")) {
		do {
			if (!first)
				sb_putc(p->out, ',');
			first = false;
			if (!jp_value(p))
				return false;
		} while (eat(p, ", "));
		if (!eat(p, ")"))
			return false;
	}
	sb_puts(p->out, "]}");
	return true;
}

/* {key=value, ..., ...} */
static bool jp_struct(struct jp *p)
{
	bool first = true;

	sb_puts(p->out, "{\"struct\":{");
	if (eat(p, "}")) {
		sb_puts(p->out, "}}");
		return true;
	}
	for (;;) {
		const char *k = p->s;

		if (eat(p, "...")) {
			sb_puts(p->out, "},\"more\":true");
			if (!eat(p, "}"))
				return false;
			sb_putc(p->out, '}');
			return true;
		}
		while (p->s < p->end && (is_name_char(*p->s) ||
					 *p->s == '[' || *p->s == ']'))
			p->s++;
		if (p->s == k || !eat(p, "="))
			return false;
		if (!first)
			sb_putc(p->out, ',');
		first = false;
		sb_json_str(p->out, k, (size_t)(p->s - k - 1));
		sb_putc(p->out, ':');
		if (!jp_value(p))
			return false;
		if (eat(p, "}"))
			break;
		if (!eat(p, ", "))
			return false;
	}
	sb_puts(p->out, "}}");
	return true;
}

/* [a, b, ...] or strace's signal sets [USR1 TERM]. */
static bool jp_array(struct jp *p)
{
	enum { SEP_ANY, SEP_COMMA, SEP_SPACE } sep = SEP_ANY;
	bool first = true;

	sb_puts(p->out, "{\"array\":[");
	if (eat(p, "]")) {
		sb_puts(p->out, "]}");
		return true;
	}
	for (;;) {
		if (eat(p, "...")) {
			sb_puts(p->out, "],\"more\":true");
			if (!eat(p, "]"))
				return false;
			sb_putc(p->out, '}');
			return true;
		}
		if (!first)
			sb_putc(p->out, ',');
		first = false;
		if (!jp_value(p))
			return false;
		if (eat(p, "]"))
			break;
		if (sep != SEP_SPACE && eat(p, ", ")) {
			sep = SEP_COMMA;
			continue;
		}
		/* A signal set: names one space apart, no commas. */
		if (sep != SEP_COMMA && eat(p, " ")) {
			sep = SEP_SPACE;
			continue;
		}
		return false;
	}
	sb_puts(p->out, "]}");
	return true;
}

/*
 * 3</path>: what -y or -Y print after a number (or AT_FDCWD), to the
 * matching '>'; -y's "(deleted)" after it.
 */
static bool jp_decoration(struct jp *p)
{
	const char *q = p->s + 1;
	int depth = 1, square = 0;
	bool inq = false;

	/* Quotes and [...] (UNIX:[1->2], TCP:[a->b]) hide their <>. */
	for (; q < p->end && depth; q++) {
		if (*q == '\\' && q + 1 < p->end) {
			q++;
			continue;
		}
		if (*q == '"')
			inq = !inq;
		else if (inq)
			continue;
		else if (*q == '[')
			square++;
		else if (*q == ']' && square)
			square--;
		else if (!square && *q == '<')
			depth++;
		else if (!square && *q == '>')
			depth--;
	}
	if (depth)
		return false;
	sb_puts(p->out, ",\"with\":");
	sb_json_str(p->out, p->s + 1, (size_t)(q - p->s - 2));
	p->s = q;
	if (eat(p, "(deleted)"))
		sb_puts(p->out, ",\"deleted\":true");
	return true;
}

static bool jp_primary(struct jp *p)
{
	const char *q;

	if (p->s >= p->end)
		return false;
	if (*p->s == '"')
		return jp_string(p);
	if (eat(p, "{"))
		return jp_struct(p);
	if (eat(p, "["))
		return jp_array(p);
	if (eat(p, "~[")) {
		sb_puts(p->out, "{\"not\":");
		if (!jp_array(p))
			return false;
		sb_putc(p->out, '}');
		return true;
	}
	if (at(p, "NULL") && (p->s + 4 == p->end || !is_name_char(p->s[4]))) {
		p->s += 4;
		sb_puts(p->out, "null");
		return true;
	}
	if ((isdigit((unsigned char)*p->s) || *p->s == '-') && !at(p, "1<<")) {
		if (!jp_number(p))
			return false;
		/* 0x10|O_X: a number among names, read as names. */
		return p->s >= p->end || *p->s != '|';
	}
	q = p->s;
	while (q < p->end && is_name_char(*q))
		q++;
	if (q > p->s && q < p->end && *q == '(') {
		const char *name = p->s;

		p->s = q + 1;
		return jp_call(p, name, (size_t)(q - name));
	}
	return jp_names(p);
}

static bool jp_value(struct jp *p)
{
	size_t mark = p->out->len;

	const char *s0 = p->s;

	if (++p->depth > JP_MAX_DEPTH)
		return false;
	/* A number that a name follows ("0x10|O_X") is a names set. */
	if (!jp_primary(p)) {
		p->out->len = mark;
		p->s = s0;
		if (!jp_names(p))
			return false;
	}
	/* -y, -Y: 3</path>, AT_FDCWD</cwd>, 1234<sh> */
	if (p->s < p->end && *p->s == '<') {
		struct sbuf v = { 0 };
		bool ok;

		sb_putn(&v, p->out->p + mark, p->out->len - mark);
		p->out->len = mark;
		sb_puts(p->out, "{\"decorated\":{\"value\":");
		sb_putn(p->out, v.p, v.len);
		sb_free(&v);
		ok = jp_decoration(p);
		sb_puts(p->out, "}}");
		if (!ok)
			return false;
	}
	/* value /\* comment *\/ */
	if (at(p, " /* ")) {
		const char *c = p->s + 4, *e = c;
		struct sbuf v = { 0 };

		while (e + 3 <= p->end && memcmp(e, " */", 3))
			e++;
		if (e + 3 > p->end)
			return false;
		sb_putn(&v, p->out->p + mark, p->out->len - mark);
		p->out->len = mark;
		sb_puts(p->out, "{\"comment\":");
		sb_json_str(p->out, c, (size_t)(e - c));
		sb_puts(p->out, ",\"value\":");
		sb_putn(p->out, v.p, v.len);
		sb_putc(p->out, '}');
		sb_free(&v);
		p->s = e + 3;
	}
	/* in => out */
	if (eat(p, " => ")) {
		struct sbuf v = { 0 };

		sb_putn(&v, p->out->p + mark, p->out->len - mark);
		p->out->len = mark;
		sb_puts(p->out, "{\"changed\":{\"from\":");
		sb_putn(p->out, v.p, v.len);
		sb_puts(p->out, ",\"to\":");
		sb_free(&v);
		if (!jp_value(p))
			return false;
		sb_puts(p->out, "}}");
	}
	p->depth--;
	return true;
}

void json_text_value(struct sbuf *out, const char *text, size_t n)
{
	struct jp p = { text, text + n, out, 0 };
	const char *eq = memchr(text, '=', n), *q = text;
	size_t vmark;
	bool named = false;

	sb_puts(out, "{\"text\":");
	sb_json_str(out, text, n);
	vmark = out->len;
	sb_puts(out, ",\"value\":");
	/* An argument strace names (clone's child_stack=NULL ...). */
	while (eq && q < eq && (isalnum((unsigned char)*q) || *q == '_'))
		q++;
	if (eq && q == eq && eq > text) {
		named = true;
		sb_puts(out, "{\"name\":");
		sb_json_str(out, text, (size_t)(eq - text));
		sb_puts(out, ",\"value\":");
		p.s = eq + 1;
	}
	/* Not strace's plain notation: the text alone. */
	if (!n || !jp_value(&p) || p.s != p.end)
		out->len = vmark;
	else if (named)
		sb_putc(out, '}');
	sb_putc(out, '}');
}

void json_header(struct sbuf *out)
{
	sb_printf(out, "{\"type\":\"header\",\"schema\":\"utrace-json\","
		  "\"version\":%d,\"utrace\":\"%s\"}\n",
		  UTRACE_JSON_SCHEMA_VERSION, UTRACE_VERSION);
}
