// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * chronoscope_tracer - a small tracer for teaching with Chronoscope
 *
 * Debian's kernel has no irqsoff, preemptoff or wakeup tracers.  This module
 * gives a classroom what they would show, as ordinary trace events in the
 * "chronoscope" system:
 *
 *  - wakeup_latency: a task ran later than threshold_us after its wakeup.
 *    Probes on sched_waking, sched_wakeup, sched_wakeup_new and sched_switch
 *    measure the latency in the kernel.
 *  - irqs_off_begin/end, preempt_off_begin/end: a demonstration section with
 *    interrupts or preemption disabled, busy-waiting for a requested time.
 *  - mark: a text written by user space.
 *
 * Knobs live in /sys/kernel/debug/chronoscope/ (see README.md).
 *
 * Copyright (C) The Chronoscope authors
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpu.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/hash.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/tracepoint.h>
#include <linux/uaccess.h>
#include <linux/version.h>
#include <linux/workqueue.h>

#define CREATE_TRACE_POINTS
#include "chronoscope_trace.h"

#define CS_MAX_SECTION_US_LIMIT	1000000U	/* 1 s, far below the watchdogs */
#define CS_MARK_MAX		256
#define CS_WAKE_HASH_BITS	12

static unsigned int cs_default_threshold_us = 1000;
module_param_named(threshold_us, cs_default_threshold_us, uint, 0444);
MODULE_PARM_DESC(threshold_us,
		 "Initial wakeup latency threshold in microseconds (default 1000)");

static int cs_default_cpu = -1;
module_param_named(cpu, cs_default_cpu, int, 0444);
MODULE_PARM_DESC(cpu,
		 "Initial CPU for sections, -1 for the writer's own context (default -1)");

static unsigned int cs_max_section_us = 100000;
module_param_named(max_section_us, cs_max_section_us, uint, 0444);
MODULE_PARM_DESC(max_section_us,
		 "Longest section a knob may request, in microseconds (default 100000, at most 1000000)");

/* Runtime state, changed through debugfs. */
static u64 cs_threshold_ns;
static int cs_cpu;
static DEFINE_MUTEX(cs_section_lock);	/* one section at a time */
static struct dentry *cs_dir;

static atomic64_t cs_n_sections;
static atomic64_t cs_n_wakeups;
static atomic64_t cs_n_latency_events;
static atomic64_t cs_max_latency_ns;
static atomic64_t cs_last_measured_ns;

/*
 * Pending wakeups, hashed by pid.  A collision overwrites the older entry, so
 * under heavy load a wakeup can go unmeasured; it is never misattributed,
 * because the pid is checked.
 */
struct cs_wake_slot {
	raw_spinlock_t lock;
	pid_t pid;
	enum cs_wake_kind kind;
	u64 start_ns;
};

static struct cs_wake_slot cs_wake_table[1 << CS_WAKE_HASH_BITS];

static struct cs_wake_slot *cs_wake_slot(pid_t pid)
{
	return &cs_wake_table[hash_32((u32)pid, CS_WAKE_HASH_BITS)];
}

static void cs_wake_start(struct task_struct *p, enum cs_wake_kind kind)
{
	struct cs_wake_slot *slot;
	unsigned long flags;
	u64 now;

	if (!p->pid)
		return;

	now = ktime_get_mono_fast_ns();
	slot = cs_wake_slot(p->pid);
	raw_spin_lock_irqsave(&slot->lock, flags);
	/* sched_wakeup follows sched_waking: keep the earlier start. */
	if (kind != CS_WAKE_WAKEUP || slot->pid != p->pid) {
		slot->pid = p->pid;
		slot->kind = kind;
		slot->start_ns = now;
	}
	raw_spin_unlock_irqrestore(&slot->lock, flags);
}

static void cs_probe_waking(void *data, struct task_struct *p)
{
	cs_wake_start(p, CS_WAKE_WAKING);
}

static void cs_probe_wakeup(void *data, struct task_struct *p)
{
	cs_wake_start(p, CS_WAKE_WAKEUP);
}

static void cs_probe_wakeup_new(void *data, struct task_struct *p)
{
	cs_wake_start(p, CS_WAKE_NEW);
}

/* Forget a pending wakeup; return its start time, or 0 if there was none. */
static u64 cs_wake_take(pid_t pid, enum cs_wake_kind *kind)
{
	struct cs_wake_slot *slot = cs_wake_slot(pid);
	unsigned long flags;
	u64 start_ns = 0;

	raw_spin_lock_irqsave(&slot->lock, flags);
	if (slot->pid == pid) {
		start_ns = slot->start_ns;
		*kind = slot->kind;
		slot->pid = 0;
	}
	raw_spin_unlock_irqrestore(&slot->lock, flags);
	return start_ns;
}

static void cs_switch(struct task_struct *prev, struct task_struct *next)
{
	enum cs_wake_kind kind = CS_WAKE_WAKING;
	u64 start_ns, now, latency_ns, threshold_ns;
	s64 max_ns;

	/*
	 * A task woken while it was still running (it had not yet slept) is
	 * not waiting for a CPU: drop its wakeup when it leaves the CPU.
	 */
	if (prev->pid)
		cs_wake_take(prev->pid, &kind);

	if (!next->pid)
		return;
	start_ns = cs_wake_take(next->pid, &kind);
	if (!start_ns)
		return;

	now = ktime_get_mono_fast_ns();
	latency_ns = now > start_ns ? now - start_ns : 0;
	atomic64_inc(&cs_n_wakeups);

	max_ns = atomic64_read(&cs_max_latency_ns);
	while ((s64)latency_ns > max_ns) {
		s64 old = atomic64_cmpxchg(&cs_max_latency_ns, max_ns,
					   latency_ns);
		if (old == max_ns)
			break;
		max_ns = old;
	}

	threshold_ns = READ_ONCE(cs_threshold_ns);
	if (latency_ns <= threshold_ns)
		return;
	atomic64_inc(&cs_n_latency_events);
	trace_wakeup_latency(next, kind, smp_processor_id(), latency_ns,
			     threshold_ns);
}

/* The sched_switch tracepoint gained prev_state in 5.18. */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(5, 18, 0)
static void cs_probe_switch(void *data, bool preempt,
			    struct task_struct *prev,
			    struct task_struct *next,
			    unsigned int prev_state)
{
	cs_switch(prev, next);
}
#else
static void cs_probe_switch(void *data, bool preempt,
			    struct task_struct *prev,
			    struct task_struct *next)
{
	cs_switch(prev, next);
}
#endif

/*
 * The scheduler tracepoints are not exported to modules, so they are found
 * by name among the kernel's tracepoints.
 */
struct cs_probe {
	const char *name;
	void *func;
	bool required;
	struct tracepoint *tp;
};

static struct cs_probe cs_probes[] = {
	{ "sched_switch",	cs_probe_switch,	true },
	{ "sched_waking",	cs_probe_waking,	false },
	{ "sched_wakeup",	cs_probe_wakeup,	true },
	{ "sched_wakeup_new",	cs_probe_wakeup_new,	false },
};

static void cs_find_tracepoint(struct tracepoint *tp, void *priv)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(cs_probes); i++) {
		if (!strcmp(tp->name, cs_probes[i].name))
			cs_probes[i].tp = tp;
	}
}

static void cs_unregister_probes(void)
{
	int i;

	for (i = ARRAY_SIZE(cs_probes) - 1; i >= 0; i--) {
		if (!cs_probes[i].tp)
			continue;
		tracepoint_probe_unregister(cs_probes[i].tp,
					    cs_probes[i].func, NULL);
		cs_probes[i].tp = NULL;
	}
	/* No probe may still run when the module text goes away. */
	tracepoint_synchronize_unregister();
}

static int cs_register_probes(void)
{
	int i, ret;

	for_each_kernel_tracepoint(cs_find_tracepoint, NULL);

	for (i = 0; i < ARRAY_SIZE(cs_probes); i++) {
		if (!cs_probes[i].tp) {
			if (cs_probes[i].required) {
				pr_err("tracepoint %s not found\n",
				       cs_probes[i].name);
				ret = -ENOENT;
				goto fail;
			}
			continue;
		}
		ret = tracepoint_probe_register(cs_probes[i].tp,
						cs_probes[i].func, NULL);
		if (ret) {
			pr_err("cannot attach to %s: %d\n",
			       cs_probes[i].name, ret);
			cs_probes[i].tp = NULL;
			goto fail;
		}
	}
	return 0;

fail:
	cs_unregister_probes();
	return ret;
}

/* Demonstration sections. */
enum cs_section_kind {
	CS_SECTION_IRQS_OFF,
	CS_SECTION_PREEMPT_OFF,
};

struct cs_section {
	struct work_struct work;
	enum cs_section_kind kind;
	u64 requested_ns;
	u64 measured_ns;
};

/*
 * ktime_get_mono_fast_ns() works with interrupts off and under QEMU's TCG,
 * where local_clock() may not advance; it can step back a little across a
 * timekeeping update, hence the signed comparison.
 *
 * The clock is read after the begin event is recorded and before the end
 * event is: a delay in recording either (a guest CPU stalled by its host)
 * makes the section look longer in the recording, never shorter than
 * requested.
 */
static u64 cs_busy_wait(u64 duration_ns)
{
	u64 start = ktime_get_mono_fast_ns();
	s64 elapsed;

	do {
		cpu_relax();
		elapsed = (s64)(ktime_get_mono_fast_ns() - start);
	} while (elapsed < (s64)duration_ns);

	return elapsed;
}

static void cs_section_run(struct cs_section *s)
{
	unsigned long flags;

	switch (s->kind) {
	case CS_SECTION_IRQS_OFF:
		local_irq_save(flags);
		trace_irqs_off_begin(s->requested_ns);
		s->measured_ns = cs_busy_wait(s->requested_ns);
		trace_irqs_off_end(s->requested_ns, s->measured_ns);
		local_irq_restore(flags);
		break;
	case CS_SECTION_PREEMPT_OFF:
		preempt_disable();
		trace_preempt_off_begin(s->requested_ns);
		s->measured_ns = cs_busy_wait(s->requested_ns);
		trace_preempt_off_end(s->requested_ns, s->measured_ns);
		preempt_enable();
		break;
	}
}

static void cs_section_work(struct work_struct *work)
{
	cs_section_run(container_of(work, struct cs_section, work));
}

/*
 * Run a section on the configured CPU in a work item there, or in the
 * writer's own context when cs_cpu is -1.  Returns when it has ended.
 */
static int cs_section(enum cs_section_kind kind, u64 requested_us)
{
	struct cs_section s = {
		.kind = kind,
		.requested_ns = requested_us * NSEC_PER_USEC,
	};
	int target, ret = 0;

	if (requested_us > cs_max_section_us)
		return -EINVAL;

	ret = mutex_lock_interruptible(&cs_section_lock);
	if (ret)
		return ret;

	target = READ_ONCE(cs_cpu);
	if (target < 0) {
		cs_section_run(&s);
	} else {
		cpus_read_lock();
		if (!cpu_online(target)) {
			ret = -ENODEV;
		} else {
			INIT_WORK_ONSTACK(&s.work, cs_section_work);
			queue_work_on(target, system_highpri_wq, &s.work);
			flush_work(&s.work);
			destroy_work_on_stack(&s.work);
		}
		cpus_read_unlock();
	}

	if (!ret) {
		atomic64_inc(&cs_n_sections);
		atomic64_set(&cs_last_measured_ns, s.measured_ns);
	}
	mutex_unlock(&cs_section_lock);
	return ret;
}

static ssize_t cs_section_write(struct file *file, const char __user *ubuf,
				size_t count, loff_t *ppos,
				enum cs_section_kind kind)
{
	u64 requested_us;
	int ret;

	ret = kstrtou64_from_user(ubuf, count, 0, &requested_us);
	if (ret)
		return ret;
	ret = cs_section(kind, requested_us);
	return ret ? ret : count;
}

static ssize_t cs_irqs_off_write(struct file *file, const char __user *ubuf,
				 size_t count, loff_t *ppos)
{
	return cs_section_write(file, ubuf, count, ppos, CS_SECTION_IRQS_OFF);
}

static ssize_t cs_preempt_off_write(struct file *file,
				    const char __user *ubuf,
				    size_t count, loff_t *ppos)
{
	return cs_section_write(file, ubuf, count, ppos,
				CS_SECTION_PREEMPT_OFF);
}

static const struct file_operations cs_irqs_off_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.write	= cs_irqs_off_write,
	.llseek	= noop_llseek,
};

static const struct file_operations cs_preempt_off_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.write	= cs_preempt_off_write,
	.llseek	= noop_llseek,
};

static ssize_t cs_mark_write(struct file *file, const char __user *ubuf,
			     size_t count, loff_t *ppos)
{
	size_t len = min_t(size_t, count, CS_MARK_MAX);
	char *text;

	text = memdup_user_nul(ubuf, len);
	if (IS_ERR(text))
		return PTR_ERR(text);
	/* "echo text > mark" appends a newline that is not part of it. */
	if (len && text[len - 1] == '\n')
		text[len - 1] = '\0';
	trace_mark(text);
	kfree(text);
	return count;
}

static const struct file_operations cs_mark_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.write	= cs_mark_write,
	.llseek	= noop_llseek,
};

static int cs_threshold_get(void *data, u64 *val)
{
	*val = div_u64(READ_ONCE(cs_threshold_ns), NSEC_PER_USEC);
	return 0;
}

static int cs_threshold_set(void *data, u64 val)
{
	if (val > U64_MAX / NSEC_PER_USEC)
		return -ERANGE;
	WRITE_ONCE(cs_threshold_ns, val * NSEC_PER_USEC);
	return 0;
}

DEFINE_DEBUGFS_ATTRIBUTE(cs_threshold_fops, cs_threshold_get,
			 cs_threshold_set, "%llu\n");

static int cs_cpu_get(void *data, u64 *val)
{
	*val = (u64)(s64)READ_ONCE(cs_cpu);
	return 0;
}

static int cs_cpu_set(void *data, u64 val)
{
	s64 target = (s64)val;

	if (target < -1 || target >= nr_cpu_ids)
		return -EINVAL;
	if (target >= 0 && !cpu_online(target))
		return -ENODEV;
	WRITE_ONCE(cs_cpu, (int)target);
	return 0;
}

DEFINE_DEBUGFS_ATTRIBUTE_SIGNED(cs_cpu_fops, cs_cpu_get, cs_cpu_set,
				"%lld\n");

static int cs_stats_show(struct seq_file *m, void *unused)
{
	seq_printf(m, "sections %lld\n", atomic64_read(&cs_n_sections));
	seq_printf(m, "last_section_ns %lld\n",
		   atomic64_read(&cs_last_measured_ns));
	seq_printf(m, "wakeups %lld\n", atomic64_read(&cs_n_wakeups));
	seq_printf(m, "latency_events %lld\n",
		   atomic64_read(&cs_n_latency_events));
	seq_printf(m, "max_latency_ns %lld\n",
		   atomic64_read(&cs_max_latency_ns));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(cs_stats);

static int __init cs_init(void)
{
	int i, ret;

	if (cs_max_section_us > CS_MAX_SECTION_US_LIMIT) {
		pr_warn("max_section_us capped to %u\n",
			CS_MAX_SECTION_US_LIMIT);
		cs_max_section_us = CS_MAX_SECTION_US_LIMIT;
	}
	if (cs_default_cpu < -1 || cs_default_cpu >= (int)nr_cpu_ids) {
		pr_err("cpu=%d is not a possible CPU\n", cs_default_cpu);
		return -EINVAL;
	}
	cs_cpu = cs_default_cpu;
	cs_threshold_ns = (u64)cs_default_threshold_us * NSEC_PER_USEC;

	for (i = 0; i < ARRAY_SIZE(cs_wake_table); i++)
		raw_spin_lock_init(&cs_wake_table[i].lock);

	ret = cs_register_probes();
	if (ret)
		return ret;

	cs_dir = debugfs_create_dir("chronoscope", NULL);
	debugfs_create_file("irqs_off_us", 0200, cs_dir, NULL,
			    &cs_irqs_off_fops);
	debugfs_create_file("preempt_off_us", 0200, cs_dir, NULL,
			    &cs_preempt_off_fops);
	debugfs_create_file("mark", 0200, cs_dir, NULL, &cs_mark_fops);
	debugfs_create_file_unsafe("threshold_us", 0600, cs_dir, NULL,
				   &cs_threshold_fops);
	debugfs_create_file_unsafe("cpu", 0600, cs_dir, NULL, &cs_cpu_fops);
	debugfs_create_file("stats", 0400, cs_dir, NULL, &cs_stats_fops);

	pr_info("loaded: threshold %u us, max section %u us\n",
		cs_default_threshold_us, cs_max_section_us);
	return 0;
}

static void __exit cs_exit(void)
{
	/* Waits for writers still inside a knob, so no section is running. */
	debugfs_remove_recursive(cs_dir);
	cs_unregister_probes();
	pr_info("unloaded\n");
}

module_init(cs_init);
module_exit(cs_exit);

MODULE_LICENSE("GPL");
MODULE_AUTHOR("The Chronoscope authors");
MODULE_DESCRIPTION("Wakeup latency, irqs-off and preempt-off demonstration events for Chronoscope");
