#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The kmod test scenario, run by guest-init.sh in the guest as root with
# tracefs and debugfs mounted.  Leaves NAME.dat, NAME.json and NAME.log of
# each classroom demo in /out; exits non-zero on the first failure.

T=/sys/kernel/tracing
D=/sys/kernel/debug/chronoscope
KO=/modules/chronoscope_tracer.ko
MOD=chronoscope_tracer

log() {
	read -r up _ </proc/uptime
	echo "guest: [$up] $*"
}

fail() {
	echo "guest: FAIL: $*"
	exit 1
}

# rmmod refuses while a knob is open (the file holds a module reference):
# retry, as a user would.  Leaves the number of refusals in $refused.
unload() {
	refused=0
	until rmmod $MOD 2>/dev/null; do
		refused=$((refused + 1))
		[ $refused -lt 500 ] || fail "rmmod did not succeed in 500 tries"
		usleep 1000
	done
	[ ! -d $D ] || fail "debugfs directory still there after rmmod"
	[ ! -d $T/events/chronoscope ] || fail "events still there after rmmod"
}

# asleep PID: wait until the task PID runs sleep(1) and sleeps; fails if
# it is gone first.  Uses only builtins to keep this loop fast under TCG.
asleep() {
	n=0
	while read -r stat </proc/"$1"/stat; do
		case $stat in
		*"(sleep) S"*) return 0 ;;
		esac
		n=$((n + 1))
		[ $n -lt 100000 ] || return 1
	done 2>/dev/null
	return 1
}

# set_knob FILE VALUE: write VALUE to a knob and read it back.
set_knob() {
	if ! echo "$2" >"$D/$1" || [ "$(cat "$D/$1")" != "$2" ]; then
		fail "the $1 knob did not take $2"
	fi
}

check_dmesg() {
	if dmesg | grep -E 'BUG:|WARNING:|Oops|Call Trace|general protection|soft lockup|hard LOCKUP|rcu: INFO'; then
		fail "kernel complained ($1)"
	fi
}

# Keep this shell on CPU 0 so that CPU 1 is free for the sections.
taskset -p 1 $$ >/dev/null

log "start"

# 1. Plain load and unload.
insmod $KO || fail "insmod"
for f in irqs_off_us preempt_off_us cpu threshold_us mark stats; do
	[ -e $D/$f ] || fail "no $D/$f"
done
[ -d $T/events/chronoscope/wakeup_latency ] || fail "no wakeup_latency event"
echo 100001 >$D/irqs_off_us 2>/dev/null && fail "the section cap was not enforced"
echo 7 >$D/cpu 2>/dev/null && fail "an offline CPU was accepted"
set_knob cpu -1
set_knob cpu 1
set_knob threshold_us 2500
echo 1000 >$D/preempt_off_us || fail "preempt-off section on CPU 1"
grep -q '^sections 1$' $D/stats || fail "the section was not counted"
unload
log "load and unload: ok"

# 2. Reload three times while sections run in a loop on both CPUs and
#    the probes and events fire.  A writer holds a module reference while
#    a knob is open, so the loops pause briefly to let rmmod in.
insmod $KO threshold_us=0 || fail "insmod (reload)"
echo 1 >$T/events/chronoscope/enable
echo 1 >$T/events/sched/sched_switch/enable
taskset -c 0 sh -c "while :; do echo 2000 >$D/irqs_off_us; echo 2000 >$D/preempt_off_us; echo busy >$D/mark; sleep 0.01; done" 2>/dev/null &
loop0=$!
taskset -c 1 sh -c "while :; do echo 3000 >$D/preempt_off_us; sleep 0.01; echo 1000 >$D/irqs_off_us; sleep 0.01; done" 2>/dev/null &
loop1=$!
for round in 1 2 3; do
	sleep 0.3
	sections=$(sed -n 's/^sections //p' $D/stats)
	[ "${sections:-0}" -gt 0 ] || fail "no section ran in round $round"
	unload
	log "round $round: $sections sections, rmmod refused $refused times while a knob was in use"
	insmod $KO threshold_us=0 || fail "insmod in round $round"
	echo 1 >$T/events/chronoscope/enable
done
kill $loop0 $loop1
wait
grep -q '^wakeups [1-9]' $D/stats || fail "the probes measured no wakeup"
unload
echo 0 >$T/events/sched/sched_switch/enable
check_dmesg "reload under load"
log "reload under load: ok"

# 3. The classroom demos, recorded by Chronoscope's own recorder
#    (`chronoscope demo`, a private tracefs instance, a v6 trace.dat).  The
#    first two load the module from /modules themselves and unload it; the
#    third finds it loaded, and must leave it loaded with its knobs as they
#    were.  Each prints its markers as JSON; the host checks the files with
#    Chronoscope's index (check-demos.py).
export HOME=/tmp XDG_CACHE_HOME=/tmp/cache
[ ! -d /sys/module/$MOD ] || fail "the module is loaded before the demos"
for demo in wakeup-latency irqs-off; do
	chronoscope demo $demo --module $KO --cpu 1 --no-open --json \
		-o /out/$demo.dat >/out/$demo.json 2>/out/$demo.log || {
		cat /out/$demo.log
		fail "chronoscope demo $demo"
	}
	[ ! -d /sys/module/$MOD ] || fail "demo $demo left the module loaded"
	log "demo $demo: $(tr -d '\n ' </out/$demo.json | cut -c1-160)"
done
insmod $KO threshold_us=3000 || fail "insmod (before the preemption demo)"
chronoscope demo preemption --cpu 1 --no-open --json -o /out/preemption.dat \
	>/out/preemption.json 2>/out/preemption.log || {
	cat /out/preemption.log
	fail "chronoscope demo preemption"
}
[ -d /sys/module/$MOD ] || fail "the preemption demo unloaded a module it did not load"
[ "$(cat $D/threshold_us)" = 3000 ] || fail "threshold_us not restored: $(cat $D/threshold_us)"
[ "$(cat $D/cpu)" = -1 ] || fail "cpu not restored: $(cat $D/cpu)"
log "demo preemption: $(tr -d '\n ' </out/preemption.json | cut -c1-160)"
[ -z "$(ls $T/instances)" ] || fail "tracefs instances left behind: $(ls $T/instances)"
for e in $T/events/chronoscope/*/enable $T/events/sched/sched_switch/enable; do
	[ "$(cat "$e")" = 0 ] || fail "$e left on"
done
unload
check_dmesg "demos"
log "demos: ok"
