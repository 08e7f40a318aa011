/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Trace events of the Chronoscope demonstration tracer.
 *
 * They appear in tracefs under events/chronoscope/ and are recorded like any
 * other trace event.  Times are nanoseconds of ktime_get_mono_fast_ns().
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM chronoscope

#if !defined(_CHRONOSCOPE_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _CHRONOSCOPE_TRACE_H

#include <linux/sched.h>
#include <linux/tracepoint.h>
#include <linux/version.h>

#ifndef _CHRONOSCOPE_TRACE_ONCE
#define _CHRONOSCOPE_TRACE_ONCE

/* Which scheduler event started the measured wakeup latency. */
enum cs_wake_kind {
	CS_WAKE_WAKING,		/* sched_waking: try_to_wake_up() began */
	CS_WAKE_WAKEUP,		/* sched_wakeup seen without sched_waking */
	CS_WAKE_NEW,		/* sched_wakeup_new: a new task */
};

/* __assign_str() lost its source argument in 6.10. */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 10, 0)
#define cs_assign_str(dst, src) __assign_str(dst)
#else
#define cs_assign_str(dst, src) __assign_str(dst, src)
#endif

#endif /* _CHRONOSCOPE_TRACE_ONCE */

TRACE_DEFINE_ENUM(CS_WAKE_WAKING);
TRACE_DEFINE_ENUM(CS_WAKE_WAKEUP);
TRACE_DEFINE_ENUM(CS_WAKE_NEW);

#define show_cs_wake_kind(kind)					\
	__print_symbolic(kind,					\
			 { CS_WAKE_WAKING, "waking" },		\
			 { CS_WAKE_WAKEUP, "wakeup" },		\
			 { CS_WAKE_NEW, "new" })

/*
 * wakeup_latency - a task ran later after its wakeup than the threshold
 * @p:		the task that has just been switched in
 * @kind:	the scheduler event the latency is measured from
 * @target_cpu:	the CPU it was woken onto and now runs on
 * @latency_ns:	from the wakeup to the sched_switch that ran it
 * @threshold_ns: the threshold in force
 */
TRACE_EVENT(wakeup_latency,

	TP_PROTO(struct task_struct *p, enum cs_wake_kind kind,
		 int target_cpu, u64 latency_ns, u64 threshold_ns),

	TP_ARGS(p, kind, target_cpu, latency_ns, threshold_ns),

	TP_STRUCT__entry(
		__array(char,	comm,	TASK_COMM_LEN)
		__field(pid_t,	pid)
		__field(int,	prio)
		__field(int,	target_cpu)
		__field(int,	kind)
		__field(u64,	latency_ns)
		__field(u64,	threshold_ns)
	),

	TP_fast_assign(
		memcpy(__entry->comm, p->comm, TASK_COMM_LEN);
		__entry->pid		= p->pid;
		__entry->prio		= p->prio;
		__entry->target_cpu	= target_cpu;
		__entry->kind		= kind;
		__entry->latency_ns	= latency_ns;
		__entry->threshold_ns	= threshold_ns;
	),

	TP_printk("comm=%s pid=%d prio=%d target_cpu=%03d from=%s latency_ns=%llu threshold_ns=%llu",
		  __entry->comm, __entry->pid, __entry->prio,
		  __entry->target_cpu, show_cs_wake_kind(__entry->kind),
		  __entry->latency_ns, __entry->threshold_ns)
);

/* Start of a demonstration section: interrupts or preemption now off. */
DECLARE_EVENT_CLASS(chronoscope_section_begin,

	TP_PROTO(u64 requested_ns),

	TP_ARGS(requested_ns),

	TP_STRUCT__entry(
		__field(u64,	requested_ns)
	),

	TP_fast_assign(
		__entry->requested_ns	= requested_ns;
	),

	TP_printk("requested_ns=%llu", __entry->requested_ns)
);

DEFINE_EVENT(chronoscope_section_begin, irqs_off_begin,
	TP_PROTO(u64 requested_ns),
	TP_ARGS(requested_ns)
);

DEFINE_EVENT(chronoscope_section_begin, preempt_off_begin,
	TP_PROTO(u64 requested_ns),
	TP_ARGS(requested_ns)
);

/* End of a section, still inside it: the busy-wait measured measured_ns. */
DECLARE_EVENT_CLASS(chronoscope_section_end,

	TP_PROTO(u64 requested_ns, u64 measured_ns),

	TP_ARGS(requested_ns, measured_ns),

	TP_STRUCT__entry(
		__field(u64,	requested_ns)
		__field(u64,	measured_ns)
	),

	TP_fast_assign(
		__entry->requested_ns	= requested_ns;
		__entry->measured_ns	= measured_ns;
	),

	TP_printk("requested_ns=%llu measured_ns=%llu",
		  __entry->requested_ns, __entry->measured_ns)
);

DEFINE_EVENT(chronoscope_section_end, irqs_off_end,
	TP_PROTO(u64 requested_ns, u64 measured_ns),
	TP_ARGS(requested_ns, measured_ns)
);

DEFINE_EVENT(chronoscope_section_end, preempt_off_end,
	TP_PROTO(u64 requested_ns, u64 measured_ns),
	TP_ARGS(requested_ns, measured_ns)
);

/* A text written to debugfs chronoscope/mark. */
TRACE_EVENT(mark,

	TP_PROTO(const char *text),

	TP_ARGS(text),

	TP_STRUCT__entry(
		__string(text,	text)
	),

	TP_fast_assign(
		cs_assign_str(text, text);
	),

	TP_printk("%s", __get_str(text))
);

#endif /* _CHRONOSCOPE_TRACE_H */

/* This part must be outside the header guard. */
#undef TRACE_INCLUDE_PATH
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_PATH .
#define TRACE_INCLUDE_FILE chronoscope_trace
#include <trace/define_trace.h>
