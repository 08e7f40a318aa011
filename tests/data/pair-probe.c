// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pair-probe.c: the clock exchanges of make-host-guest-pair.sh, one side
 * on the host and one in the QEMU guest, each writing trace_marker lines
 * into the tracefs instance of the `chronoscope record` that runs it
 * (instances/chronoscope-<parent pid>), so both recordings hold the same
 * exchanges, timestamped by their own ring buffers.
 *
 *   pair-probe guest DEVICE
 *     In the guest, on a serial port whose other end is the host's probe.
 *     Answers each byte: 'a' + N moves it to CPU N (answered 'A', not
 *     timed); 'p' writes the marker "cs-pair: guest SEQ" and answers 'P';
 *     'q' ends.
 *   pair-probe host SOCKET COUNT
 *     On the host, connected to QEMU's end of that serial port (a UNIX
 *     socket).  COUNT exchanges in batches of 16 per guest CPU, CPUs
 *     taken in turn, 4 ms apart: marker "cs-pair: send SEQ", the byte,
 *     the answer, marker "cs-pair: recv SEQ".
 *   pair-probe tsc2nsec
 *     Prints "MULT SHIFT": how this kernel turns TSC ticks into
 *     nanoseconds (time_mult and time_shift of a perf event's mmap page,
 *     where trace-cmd reads its TSC2NSEC option from); fails when the
 *     kernel does not offer them (cap_user_time).
 *
 * Built static (gcc -static) so that it runs in the busybox guest as it is.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/perf_event.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#define BATCH 16

static int open_marker(void)
{
	char path[128];
	int fd;

	snprintf(path, sizeof(path),
		 "/sys/kernel/tracing/instances/chronoscope-%d/trace_marker",
		 (int)getppid());
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "pair-probe: %s: %s\n", path, strerror(errno));
		exit(1);
	}
	return fd;
}

static void mark(int fd, const char *what, unsigned seq)
{
	char text[64];
	int len = snprintf(text, sizeof(text), "cs-pair: %s %u", what, seq);

	if (write(fd, text, (size_t)len) != len) {
		perror("pair-probe: trace_marker");
		exit(1);
	}
}

static char get_byte(int fd)
{
	char c;
	ssize_t n;

	do
		n = read(fd, &c, 1);
	while (n < 0 && errno == EINTR);
	if (n != 1) {
		fprintf(stderr, "pair-probe: read: %s\n", n == 0 ? "end of file" : strerror(errno));
		exit(1);
	}
	return c;
}

static void put_byte(int fd, char c)
{
	if (write(fd, &c, 1) != 1) {
		perror("pair-probe: write");
		exit(1);
	}
}

static void move_to_cpu(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) != 0)
		perror("pair-probe: sched_setaffinity");
}

static int guest(const char *device)
{
	int marker = open_marker();
	int fd = open(device, O_RDWR | O_NOCTTY);
	struct termios tio;
	unsigned seq = 0;

	if (fd < 0 || tcgetattr(fd, &tio) != 0) {
		fprintf(stderr, "pair-probe: %s: %s\n", device, strerror(errno));
		return 1;
	}
	/* Raw bytes at 115200 baud: unless its trigger level is 1 byte
	 * (rx_trig_bytes, set by the scenario), the emulated 16550's FIFO
	 * raises the receive interrupt for a lone byte after four character
	 * times, 4 ms at the default 9600 baud, 0.35 ms at this speed. */
	cfmakeraw(&tio);
	cfsetspeed(&tio, B115200);
	tcsetattr(fd, TCSANOW, &tio);
	tcflush(fd, TCIOFLUSH);
	fprintf(stderr, "cs-pair: ready\n");
	for (;;) {
		char c = get_byte(fd);

		if (c == 'q')
			break;
		if (c == 'p') {
			mark(marker, "guest", seq++);
			put_byte(fd, 'P');
		} else if (c >= 'a' && c <= 'z') {
			move_to_cpu(c - 'a');
			put_byte(fd, 'A');
		}
	}
	fprintf(stderr, "cs-pair: %u exchanges\n", seq);
	return 0;
}

static int host(const char *socket_path, unsigned count)
{
	int marker = open_marker();
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	struct timespec pause = { 0, 4000000 };
	long n_cpus = 2;

	snprintf(addr.sun_path, sizeof(addr.sun_path), "%s", socket_path);
	if (fd < 0 || connect(fd, (struct sockaddr *)&addr, sizeof(addr)) != 0) {
		fprintf(stderr, "pair-probe: %s: %s\n", socket_path, strerror(errno));
		return 1;
	}
	if (getenv("CS_PAIR_VCPUS"))
		n_cpus = atol(getenv("CS_PAIR_VCPUS"));
	for (unsigned seq = 0; seq < count; seq++) {
		if (seq % BATCH == 0) {
			put_byte(fd, (char)('a' + (seq / BATCH) % n_cpus));
			if (get_byte(fd) != 'A')
				return 1;
		}
		nanosleep(&pause, NULL);
		mark(marker, "send", seq);
		put_byte(fd, 'p');
		if (get_byte(fd) != 'P')
			return 1;
		mark(marker, "recv", seq);
	}
	put_byte(fd, 'q');
	return 0;
}

static int tsc2nsec(void)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.size = sizeof(attr),
		.config = PERF_COUNT_SW_CPU_CLOCK,
		.disabled = 1,
		.exclude_kernel = 1,
		.exclude_hv = 1,
	};
	struct perf_event_mmap_page *page;
	int fd = (int)syscall(__NR_perf_event_open, &attr, 0, -1, -1, 0);

	if (fd < 0) {
		perror("pair-probe: perf_event_open");
		return 1;
	}
	page = mmap(NULL, (size_t)getpagesize(), PROT_READ, MAP_SHARED, fd, 0);
	if (page == MAP_FAILED) {
		perror("pair-probe: mmap");
		return 1;
	}
	if (!page->cap_user_time || page->time_mult == 0) {
		fprintf(stderr, "pair-probe: the kernel gives no TSC conversion (cap_user_time 0)\n");
		return 1;
	}
	printf("%u %u\n", page->time_mult, page->time_shift);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 2 && strcmp(argv[1], "tsc2nsec") == 0)
		return tsc2nsec();
	if (argc == 3 && strcmp(argv[1], "guest") == 0)
		return guest(argv[2]);
	if (argc == 4 && strcmp(argv[1], "host") == 0)
		return host(argv[2], (unsigned)atoi(argv[3]));
	fprintf(stderr, "usage: pair-probe guest DEVICE | pair-probe host SOCKET COUNT\n");
	return 2;
}
