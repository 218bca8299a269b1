/* SPDX-License-Identifier: MIT
 * ptbprof: the result, as JSON for `ptbench profile` to read (it adds the
 * program, its exit status and the verdicts, sorts and prints). */
#include <pub_tool_basics.h>
#include <pub_tool_libcassert.h>
#include <pub_tool_libcbase.h>
#include <pub_tool_libcprint.h>
#include <pub_tool_debuginfo.h>
#include <pub_tool_vki.h>
#include "profile/prof.h"

static void put_str(VgFile *f, const HChar *s)
{
	VG_(fprintf)(f, "\"");
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			VG_(fprintf)(f, "\\%c", *s);
		else if ((UChar)*s < 0x20)
			VG_(fprintf)(f, "\\u%04x", (UInt)(UChar)*s);
		else
			VG_(fprintf)(f, "%c", *s);
	}
	VG_(fprintf)(f, "\"");
}

static const HChar *kind_name(UInt k)
{
	static const HChar *names[] = { "static", "heap", "stack", "other" };
	return names[k];
}

static void put_lines(VgFile *f, const PP_Object *o)
{
	UInt i, done = 0;
	Bool first = True;
	VG_(fprintf)(f, ",\"lines\":[");
	while (done < PP_TOP_LINES) {     /* most misses first */
		UInt best = PP_TOP_LINES;
		const HChar *file, *dir;
		UInt line;
		HChar where[300];
		for (i = 0; i < PP_TOP_LINES; i++)
			if (o->top_n[i] &&
			    (best == PP_TOP_LINES || o->top_n[i] > o->top_n[best]))
				best = i;
		if (best == PP_TOP_LINES)
			break;
		if (VG_(get_filename_linenum)(VG_(current_DiEpoch)(), o->top_ip[best], &file, &dir, &line))
			VG_(snprintf)(where, sizeof where, "%s:%u", file, line);
		else
			VG_(snprintf)(where, sizeof where, "0x%lx", o->top_ip[best]);
		VG_(fprintf)(f, "%s{\"line\":", first ? "" : ",");
		put_str(f, where);
		VG_(fprintf)(f, ",\"ip\":\"0x%lx\",\"misses\":%llu}", o->top_ip[best], o->top_n[best]);
		first = False;
		done++;
		((PP_Object *)o)->top_n[best] = 0;
	}
	VG_(fprintf)(f, "]");
}

static void put_stack(VgFile *f, const HChar *s)
{
	HChar frame[400];
	UInt n = 0;
	Bool first = True;
	VG_(fprintf)(f, ",\"stack\":[");
	for (;; s++) {
		if (*s == '\n' || !*s) {
			frame[n] = 0;
			VG_(fprintf)(f, "%s", first ? "" : ",");
			put_str(f, frame);
			first = False;
			n = 0;
			if (!*s)
				break;
		} else if (n < sizeof frame - 1)
			frame[n++] = *s;
	}
	VG_(fprintf)(f, "]");
}

static void put_object(VgFile *f, const PP_Object *o, UInt nslots, Bool first)
{
	ULong rd = 0, wr = 0;
	UInt s;
	for (s = 0; s < nslots; s++) {
		rd += o->rd[s];
		wr += o->wr[s];
	}
	if (!rd && !wr)
		return;
	VG_(fprintf)(f, "%s\n{\"name\":", first ? "" : ",");
	put_str(f, o->name);
	VG_(fprintf)(f, ",\"kind\":\"%s\"", kind_name(o->kind));
	if (o->site) {
		VG_(fprintf)(f, ",\"site\":");
		put_str(f, o->site);
		put_stack(f, o->stack);
	}
	VG_(fprintf)(f, ",\"address\":\"0x%lx\",\"size\":%lu,\"read_misses\":%llu,\"write_misses\":%llu,"
		     "\"true_sharing\":%llu,\"false_sharing\":%llu,\"threads\":[",
		     o->base, o->size, rd, wr, o->true_sh, o->false_sh);
	for (s = 0; s < nslots; s++)
		VG_(fprintf)(f, "%s{\"thread\":%u,\"read_misses\":%llu,\"write_misses\":%llu}",
			     s ? "," : "", s + 1, o->rd[s], o->wr[s]);
	VG_(fprintf)(f, "]");
	put_lines(f, o);
	VG_(fprintf)(f, "}");
}

void pp_write_result(void)
{
	UInt nslots = pp_nthreads < PP_SLOTS ? pp_nthreads : PP_SLOTS, s, i;
	Bool first = True;
	VgFile *f = VG_(fopen)(pp_cfg.out, VKI_O_CREAT | VKI_O_WRONLY | VKI_O_TRUNC,
			       VKI_S_IRUSR | VKI_S_IWUSR);
	if (!f) {
		VG_(umsg)("ptbprof: cannot write %s\n", pp_cfg.out);
		return;
	}
	VG_(fprintf)(f, "{\"tool\":\"ptbprof\",\"line_size\":%u,\"quantum\":%llu,\"threads\":%u,"
		     "\"threads_started\":%u,\"forced_merges\":%llu,\"unordered_locks\":%llu,",
		     pp_cfg.line, pp_cfg.quantum, nslots, pp_nthreads, pp_forced, pp_unordered);
	if (pp_cache_finite())
		VG_(fprintf)(f, "\"cache\":{\"size\":%u,\"ways\":%u,\"line\":%u},",
			     pp_cfg.cache_size, pp_cfg.ways, pp_cfg.line);
	VG_(fprintf)(f, "\"thread_totals\":[");
	for (s = 0; s < nslots; s++)
		VG_(fprintf)(f, "%s{\"thread\":%u,\"cold_misses\":%llu,\"replacement_misses\":%llu,"
			     "\"read_misses\":%llu,\"write_misses\":%llu}",
			     s ? "," : "", s + 1, pp_thr[s].cold, pp_thr[s].repl, pp_thr[s].rd, pp_thr[s].wr);
	VG_(fprintf)(f, "],\"objects\":[");
	for (i = 0; i < pp_nobjs; i++) {
		ULong any = 0;
		for (s = 0; s < nslots; s++)
			any += pp_objs[i]->rd[s] + pp_objs[i]->wr[s];
		if (!any)
			continue;
		put_object(f, pp_objs[i], nslots, first);
		first = False;
	}
	VG_(fprintf)(f, "]}\n");
	VG_(fclose)(f);
}
