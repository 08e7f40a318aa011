// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Print the host's TSC frequency in kHz, for the guest's tsc_early_khz=.
 *
 * Under TCG the guest's TSC is the host's TSC.  The guest kernel calibrates
 * it against emulated timers at boot, which goes wrong when the host is
 * busy (its clock then ran 7 times too fast and timers stopped firing), so
 * the test measures the frequency here and passes it on the command line.
 */
#include <stdint.h>
#include <stdio.h>
#include <time.h>
#include <x86intrin.h>

/* A TSC reading and CLOCK_MONOTONIC_RAW taken as close together as we can. */
static void sample(uint64_t *tsc, uint64_t *ns)
{
	uint64_t best = UINT64_MAX;

	for (int i = 0; i < 50; i++) {
		struct timespec ts;
		uint64_t t0 = __rdtsc();

		clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
		uint64_t t1 = __rdtsc();

		if (t1 - t0 < best) {
			best = t1 - t0;
			*tsc = t0 + (t1 - t0) / 2;
			*ns = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
		}
	}
}

int main(void)
{
	struct timespec pause = { 0, 200000000 };
	uint64_t tsc0, ns0, tsc1, ns1;

	sample(&tsc0, &ns0);
	nanosleep(&pause, NULL);
	sample(&tsc1, &ns1);
	if (ns1 <= ns0 || tsc1 <= tsc0)
		return 1;
	printf("%llu\n", (unsigned long long)((tsc1 - tsc0) * 1000000u / (ns1 - ns0)));
	return 0;
}
