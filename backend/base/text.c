/*
 * text: safe text from outside strings; see text.h.
 */
#include "text.h"

#include <stdlib.h>
#include <string.h>

#include "xmalloc.h"

/*
 * The length of the valid UTF-8 sequence at S (N bytes left), its code
 * point in *CP; 0 when S does not start one (RFC 3629, section 4: no
 * overlong form, no surrogate, nothing past U+10FFFF).
 */
static size_t text_utf8(const unsigned char *s, size_t n, unsigned *cp)
{
	unsigned lo = 0x80, hi = 0xBF, c = s[0];
	size_t len;

	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	if (c >= 0xC2 && c <= 0xDF) {
		len = 2;
		*cp = c & 0x1F;
	} else if (c >= 0xE0 && c <= 0xEF) {
		len = 3;
		*cp = c & 0x0F;
		lo = c == 0xE0 ? 0xA0 : 0x80;
		hi = c == 0xED ? 0x9F : 0xBF;
	} else if (c >= 0xF0 && c <= 0xF4) {
		len = 4;
		*cp = c & 0x07;
		lo = c == 0xF0 ? 0x90 : 0x80;
		hi = c == 0xF4 ? 0x8F : 0xBF;
	} else {
		return 0;
	}
	if (n < len)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if (s[i] < (i == 1 ? lo : 0x80) || s[i] > (i == 1 ? hi : 0xBF))
			return 0;
		*cp = *cp << 6 | (s[i] & 0x3F);
	}
	return len;
}

/* Whether code point CP is one a terminal or a reader must not get raw. */
static bool text_control(unsigned cp)
{
	return cp < 0x20 || (cp >= 0x7F && cp <= 0x9F) || cp == 0x061C ||
	       cp == 0x200E || cp == 0x200F || cp == 0x2028 || cp == 0x2029 ||
	       (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069);
}

size_t text_clean(char *out, size_t size, const char *in, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *s = (const unsigned char *)in;
	size_t o = 0, i = 0;

	while (i < n && s[i]) {
		unsigned cp;
		size_t len = text_utf8(s + i, n - i, &cp);
		bool raw = len && !text_control(cp);
		size_t each = len ? len : 1, need = raw ? each : 4 * each;

		if (o + need >= size)
			break;
		if (raw) {
			memcpy(out + o, s + i, each);
			o += each;
		} else {
			for (size_t k = 0; k < each; k++) {
				out[o++] = '\\';
				out[o++] = 'x';
				out[o++] = hex[s[i + k] >> 4];
				out[o++] = hex[s[i + k] & 15];
			}
		}
		i += each;
	}
	out[o] = '\0';
	return o;
}

void text_clean_in_place(char *s, size_t size)
{
	size_t n = strlen(s);
	char *copy;

	if (text_is_clean(s, n))
		return;
	copy = xmalloc(n + 1);
	memcpy(copy, s, n + 1);
	text_clean(s, size, copy, n);
	free(copy);
}

char *text_clean_dup(const char *s)
{
	size_t n, size;
	char *out;

	if (!s)
		return NULL;
	n = strlen(s);
	size = 4 * n + 1;
	out = xmalloc(size);
	text_clean(out, size, s, n);
	return out;
}

bool text_is_clean(const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;

	for (size_t i = 0; i < n && u[i];) {
		unsigned cp;
		size_t len = text_utf8(u + i, n - i, &cp);

		if (!len || text_control(cp))
			return false;
		i += len;
	}
	return true;
}

const char *text_bad_utf8(const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;

	for (size_t i = 0; i < n;) {
		unsigned cp;
		size_t len = text_utf8(u + i, n - i, &cp);

		if (!len)
			return s + i;
		i += len;
	}
	return NULL;
}

void text_fputs(const char *s, FILE *out)
{
	char *c;

	if (text_is_clean(s, strlen(s))) {
		fputs(s, out);
		return;
	}
	c = text_clean_dup(s);
	fputs(c, out);
	free(c);
}

void text_csv_field(const char *s, FILE *out)
{
	char *c = text_clean_dup(s);
	size_t n = strlen(c);

	if (strpbrk(c, ",\"") || (n && (c[0] == ' ' || c[n - 1] == ' '))) {
		fputc('"', out);
		for (const char *p = c; *p; p++) {
			if (*p == '"')
				fputc('"', out);
			fputc(*p, out);
		}
		fputc('"', out);
	} else {
		fputs(c, out);
	}
	free(c);
}
