/* SPDX-License-Identifier: MIT
 * ptbprof: registration, options, instrumentation and the thread and
 * system-call hooks.  Every load and store becomes a call of pp_on_access
 * with the instruction's address and the number of guest instructions
 * executed since the previous call, so that each thread's logical time is
 * its own instruction count (merge.c), the C library's aside. */
#include <pub_tool_basics.h>
#include <pub_tool_tooliface.h>
#include <pub_tool_libcassert.h>
#include <pub_tool_libcbase.h>
#include <pub_tool_libcprint.h>
#include <pub_tool_machine.h>
#include <pub_tool_options.h>
#include <pub_tool_debuginfo.h>
#include <pub_tool_replacemalloc.h>
#include <pub_tool_threadstate.h>
#include <pub_tool_vki.h>
#include <pub_tool_vkiscnums.h>
#include "profile/prof.h"
#include "profile/ptbench-profile.h"
#include <pub_tool_libcproc.h>

PP_Config pp_cfg = { 64, 6, 0, 100, 0, 0, NULL, False, False };
static Int pp_pid;    /* a forked child that exits leaves the result alone */

static Bool pow2(ULong v) { return v && !(v & (v - 1)); }

/* SIZE:WAYS:LINE in bytes, e.g. 16384:4:32. */
static Bool parse_cache(const HChar *s)
{
	HChar *end;
	Long size = VG_(strtoll10)(s, &end), ways, line;
	if (*end != ':')
		return False;
	ways = VG_(strtoll10)(end + 1, &end);
	if (*end != ':')
		return False;
	line = VG_(strtoll10)(end + 1, &end);
	if (*end || size <= 0 || ways <= 0 || ways > 64 || line < 8 || line > 4096 || !pow2(line) ||
	    size > (1LL << 31) || size % (ways * line) || !pow2(size / (ways * line)))
		return False;
	pp_cfg.cache_size = (UInt)size;
	pp_cfg.ways = (UInt)ways;
	pp_cfg.line = (UInt)line;
	return True;
}

static Bool pp_option(const HChar *arg)
{
	const HChar *s;
	Long v;
	if (VG_INT_CLO(arg, "--line-size", v)) {
		if (v < 8 || v > 4096 || (v & (v - 1)))
			VG_(fmsg_bad_option)(arg, "the line size must be a power of two from 8 to 4096\n");
		pp_cfg.line = (UInt)v;
	} else if (VG_INT_CLO(arg, "--quantum", v)) {
		if (v < 1 || v > 1000000000)
			VG_(fmsg_bad_option)(arg, "the quantum must be from 1 to 1000000000\n");
		pp_cfg.quantum = (ULong)v;
	} else if (VG_STR_CLO(arg, "--cache", s)) {
		if (!parse_cache(s))
			VG_(fmsg_bad_option)(arg, "--cache=SIZE:WAYS:LINE, SIZE/(WAYS*LINE) a power of two\n");
	} else if (VG_BOOL_CLO(arg, "--follow-affinity", pp_cfg.affinity)) {
	} else if (VG_STR_CLO(arg, "--out-file", s)) {
		pp_cfg.out = s;
	} else
		return VG_(replacement_malloc_process_cmd_line_option)(arg);
	return True;
}

static void pp_usage(void)
{
	VG_(printf)("    --line-size=B   cache line size in bytes [64]\n"
		    "    --quantum=N     instructions per lockstep step [100]\n"
		    "    --cache=S:W:L   finite LRU caches of S bytes, W ways, L-byte lines\n"
		    "    --follow-affinity=yes  threads pinned to one CPU share its cache [no]\n"
		    "    --out-file=F    where the result is written\n");
}

static void pp_debug_usage(void) { }

static void pp_post_clo_init(void)
{
	if (!pp_cfg.out)
		VG_(fmsg_bad_option)("--out-file", "ptbprof needs --out-file\n");
	while ((1u << pp_cfg.shift) < pp_cfg.line)
		pp_cfg.shift++;
	while ((1u << pp_cfg.shift) > pp_cfg.line)
		pp_cfg.shift--;
	pp_cfg.mshift = pp_cfg.shift > 6 ? pp_cfg.shift - 6 : 0;   /* 64 bits a line */
	/* A finite cache's replacement order, and a cache that changes with
	 * the thread's CPU, need every access of a private line too. */
	pp_cfg.private_lines = !pp_cfg.ways && !pp_cfg.affinity;
	pp_objects_init();
	pp_model_init();
	pp_merge_init();
	pp_pid = VG_(getpid)();
}

/* ---- instrumentation ---------------------------------------------------- */

typedef struct { IRSB *sb; UInt delta; Addr ip; Bool lib; } Instr;

/* Adds the pending instruction count to pp_ic in IR: before a side exit
 * and at the end, where no access call carries it. */
static void flush_count(Instr *in)
{
	IRTemp t1, t2;
	IRExpr *ad;
	if (!in->delta)
		return;
	t1 = newIRTemp(in->sb->tyenv, Ity_I64);
	t2 = newIRTemp(in->sb->tyenv, Ity_I64);
	ad = mkIRExpr_HWord((HWord)&pp_ic);
	addStmtToIRSB(in->sb, IRStmt_WrTmp(t1, IRExpr_Load(Iend_LE, Ity_I64, ad)));
	addStmtToIRSB(in->sb, IRStmt_WrTmp(t2, IRExpr_Binop(Iop_Add64, IRExpr_RdTmp(t1),
							    IRExpr_Const(IRConst_U64(in->delta)))));
	addStmtToIRSB(in->sb, IRStmt_Store(Iend_LE, ad, IRExpr_RdTmp(t2)));
	in->delta = 0;
}

static void access_call(Instr *in, IRExpr *addr, Int size, UInt kind, IRExpr *guard)
{
	IRDirty *di;
	UWord szkd;
	if (guard)
		flush_count(in);     /* a call that may not happen cannot carry it */
	if (in->delta > 0xfff)
		flush_count(in);
	szkd = (UWord)size | ((UWord)kind << 16) | ((UWord)in->lib << 19) | ((UWord)in->delta << 20);
	in->delta = 0;
	if (pp_cfg.line == 64)
		di = unsafeIRDirty_0_N(3, "pp_on_access_64", VG_(fnptr_to_fnentry)(pp_on_access_64),
				       mkIRExprVec_3(addr, mkIRExpr_HWord(in->ip), mkIRExpr_HWord(szkd)));
	else
		di = unsafeIRDirty_0_N(3, "pp_on_access", VG_(fnptr_to_fnentry)(pp_on_access),
				       mkIRExprVec_3(addr, mkIRExpr_HWord(in->ip), mkIRExpr_HWord(szkd)));
	if (guard)
		di->guard = guard;
	addStmtToIRSB(in->sb, IRStmt_Dirty(di));
}

/* Code of the C library and the dynamic loader: its accesses are modelled
 * but do not order the threads (merge.c explains why), and its
 * instructions take no logical time: how many of them a thread runs
 * depends on timing (a lock's spin, a retried compare-and-swap, whether
 * another thread got somewhere first), which would make the counts differ
 * from run to run. */
static Bool in_system_library(Addr ip)
{
	const HChar *obj;
	if (!VG_(get_objname)(VG_(current_DiEpoch)(), ip, &obj))
		return False;
	return VG_(strstr)(obj, "/libc.so") || VG_(strstr)(obj, "/libc-") ||
	       VG_(strstr)(obj, "/ld-linux") || VG_(strstr)(obj, "/libpthread") ||
	       VG_(strstr)(obj, "/vgpreload_");
}

static Int ty_size(IRType t) { return sizeofIRType(t); }

static void instrument_stmt(Instr *in, IRTypeEnv *tyenv, IRStmt *st)
{
	switch (st->tag) {
	case Ist_IMark:
		in->ip = st->Ist.IMark.addr;
		in->lib = in_system_library(in->ip);
		if (!in->lib)    /* the C library's counts vary with timing (spins, retries) */
			in->delta++;
		break;
	case Ist_WrTmp:
		if (st->Ist.WrTmp.data->tag == Iex_Load)
			access_call(in, st->Ist.WrTmp.data->Iex.Load.addr,
				    ty_size(st->Ist.WrTmp.data->Iex.Load.ty), PP_READ, NULL);
		break;
	case Ist_Store:
		access_call(in, st->Ist.Store.addr,
			    ty_size(typeOfIRExpr(tyenv, st->Ist.Store.data)), PP_WRITE, NULL);
		break;
	case Ist_StoreG:
		access_call(in, st->Ist.StoreG.details->addr,
			    ty_size(typeOfIRExpr(tyenv, st->Ist.StoreG.details->data)),
			    PP_WRITE, st->Ist.StoreG.details->guard);
		break;
	case Ist_LoadG: {
		IRType tw = Ity_INVALID, tr = Ity_INVALID;
		typeOfIRLoadGOp(st->Ist.LoadG.details->cvt, &tw, &tr);
		access_call(in, st->Ist.LoadG.details->addr, ty_size(tr), PP_READ,
			    st->Ist.LoadG.details->guard);
		break;
	}
	case Ist_Dirty: {
		IRDirty *d = st->Ist.Dirty.details;
		if (d->mFx != Ifx_None)
			access_call(in, d->mAddr, d->mSize,
				    d->mFx == Ifx_Read ? PP_READ : d->mFx == Ifx_Write ? PP_WRITE : PP_RMW,
				    NULL);
		break;
	}
	case Ist_CAS: {
		IRCAS *c = st->Ist.CAS.details;
		Int sz = ty_size(typeOfIRExpr(tyenv, c->dataLo)) * (c->dataHi ? 2 : 1);
		access_call(in, c->addr, sz, PP_RMW, NULL);
		break;
	}
	case Ist_LLSC:
		if (st->Ist.LLSC.storedata)
			access_call(in, st->Ist.LLSC.addr,
				    ty_size(typeOfIRExpr(tyenv, st->Ist.LLSC.storedata)), PP_RMW, NULL);
		else
			access_call(in, st->Ist.LLSC.addr,
				    ty_size(typeOfIRTemp(tyenv, st->Ist.LLSC.result)), PP_READ, NULL);
		break;
	case Ist_Exit:
		flush_count(in);
		break;
	default:
		break;
	}
}

/* Ends the superblock with a yield to Valgrind's scheduler when this thread
 * is far ahead of the others in logical time (merge.c sets pp_yield_now;
 * a test of a word, not a call, as it runs at every block's end), so that
 * what one thread reads of another's writes comes from about the same
 * logical time, as on parallel CPUs. */
static void yield_if_ahead(Instr *in, IRSB *sbIn)
{
	IRTemp f = newIRTemp(in->sb->tyenv, Ity_I64);
	IRTemp g = newIRTemp(in->sb->tyenv, Ity_I1);
	addStmtToIRSB(in->sb, IRStmt_WrTmp(f, IRExpr_Load(Iend_LE, Ity_I64,
							  mkIRExpr_HWord((HWord)&pp_yield_now))));
	addStmtToIRSB(in->sb, IRStmt_WrTmp(g, IRExpr_Binop(Iop_CmpNE64, IRExpr_RdTmp(f),
							   IRExpr_Const(IRConst_U64(0)))));
	addStmtToIRSB(in->sb, IRStmt_Exit(IRExpr_RdTmp(g), Ijk_Yield,
					  sbIn->next->Iex.Const.con, sbIn->offsIP));
}

static IRSB *pp_instrument(VgCallbackClosure *closure, IRSB *sbIn,
			   const VexGuestLayout *layout, const VexGuestExtents *vge,
			   const VexArchInfo *archinfo_host, IRType gWordTy, IRType hWordTy)
{
	Instr in = { deepCopyIRSBExceptStmts(sbIn), 0, 0, False };
	Int i;
	for (i = 0; i < sbIn->stmts_used; i++) {
		IRStmt *st = sbIn->stmts[i];
		if (!st || st->tag == Ist_NoOp)
			continue;
		instrument_stmt(&in, sbIn->tyenv, st);
		addStmtToIRSB(in.sb, st);
	}
	flush_count(&in);
	if (sbIn->jumpkind == Ijk_Boring && sbIn->next->tag == Iex_Const)
		yield_if_ahead(&in, sbIn);
	return in.sb;
}

/* ---- threads and system calls ------------------------------------------- */

static void pp_start(ThreadId tid, ULong blocks)
{
	Int s = pp_slot_of(tid);
	PP_Thread *t = &pp_thr[s];
	pp_fast_close();     /* the open lines were another thread's */
	if (t->blocked)      /* a signal handler while a system call restarts */
		pp_resume_unwoken(t);
	pp_cur = s;
	pp_ic = t->ts < pp_floor() ? pp_floor() : t->ts;
	pp_drop_reset();
	if (!t->ktid)
		t->ktid = VG_(gettid)();   /* on the thread's own kernel thread */
	if (!t->stack_hi) {
		t->stack_hi = VG_(thread_get_stack_max)(tid);
		t->stack_lo = t->stack_hi - VG_(thread_get_stack_size)(tid);
	}
}

static void pp_stop(ThreadId tid, ULong blocks)
{
	if (pp_cur >= 0) {
		pp_run_end();
		pp_thr[pp_cur].ts = pp_ic;
	}
	pp_cur = -1;
	pp_yield_now = 0;
	pp_process(False);
}

static void pp_fini(Int exitcode)
{
	if (VG_(getpid)() != pp_pid)
		return;
	pp_process(True);
	pp_model_finish();
	pp_write_result();
}

/* The region of interest (profile/ptbench-profile.h): an event in the
 * thread's stream, so that it takes effect at its logical time. */
static Bool pp_client_request(ThreadId tid, UWord *args, UWord *ret)
{
	Int s;
	if (pp_lock_request(tid, args, ret))
		return True;
	if (args[0] != PTBPROF_USERREQ_START && args[0] != PTBPROF_USERREQ_STOP)
		return False;
	s = pp_slot_of(tid);
	pp_push(s, s == pp_cur ? pp_ic : pp_thr[s].ts, 0, args[0] == PTBPROF_USERREQ_START, 0, PP_ROI);
	*ret = 0;
	return True;
}

static void pp_pre_clo_init(void)
{
	VG_(details_name)("ptbprof");
	VG_(details_version)("1");
	VG_(details_description)("ptbench's multi-cache profiler");
	VG_(details_copyright_author)("ptbench authors; MIT licence");
	VG_(details_bug_reports_to)("the ptbench project");
	VG_(details_avg_translation_sizeB)(600);
	VG_(basic_tool_funcs)(pp_post_clo_init, pp_instrument, pp_fini);
	VG_(needs_command_line_options)(pp_option, pp_usage, pp_debug_usage);
	VG_(needs_syscall_wrapper)(pp_pre_syscall, pp_post_syscall);
	VG_(needs_client_requests)(pp_client_request);
	VG_(track_start_client_code)(pp_start);
	VG_(track_stop_client_code)(pp_stop);
	VG_(track_pre_thread_ll_create)(pp_thread_create);
	VG_(track_pre_thread_ll_exit)(pp_thread_exit);
	pp_malloc_init();
}

VG_DETERMINE_INTERFACE_VERSION(pp_pre_clo_init)
