/* Just enough of a C library, in ARMv6 code, for check_core.c and c4core.c to run as a static program
 * under `qemu-arm -cpu arm1176` (the Pi 1's and Zero's CPU: ARMv6, VFPv2, no Thumb-2).  Debian's armhf
 * C library is ARMv7 Thumb-2 code, which that CPU cannot run, so .ci/native-cross links the ARMv6 core
 * with this instead (-nostdlib): Linux system calls for the input, the output and the memory, and
 * the few functions the two files call (check_core's "prove" mode, one thread; no division, which
 * ARMv6 has no instruction for and the compiler's helpers would bring in as ARMv7 code).
 *
 *   arm-linux-gnueabihf-gcc -march=armv6 -mfpu=vfp -mfloat-abi=hard -marm -std=c99 -O2 -static -nostdlib \
 *       -fno-pie -no-pie -ffreestanding -fno-builtin -fno-tree-loop-distribute-patterns ... (see .ci/native-cross)
 *
 * Only the formats and conversions those files use: %s, %d, %llu and %% in printf, %Ns and %d in sscanf;
 * anything else ends the program with exit code 3, so a change that needs more is seen at once.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#define SYS_EXIT_GROUP 248
#define SYS_READ 3
#define SYS_WRITE 4
#define SYS_MUNMAP 91
#define SYS_MMAP2 192
#define SYS_MADVISE 220

static long sys6(long n, long a, long b, long c, long d, long e, long f)
{
    register long r0 __asm__("r0") = a;
    register long r1 __asm__("r1") = b;
    register long r2 __asm__("r2") = c;
    register long r3 __asm__("r3") = d;
    register long r4 __asm__("r4") = e;
    register long r5 __asm__("r5") = f;
    register long r7 __asm__("r7") = n;
    __asm__ volatile("svc 0" : "+r"(r0) : "r"(r1), "r"(r2), "r"(r3), "r"(r4), "r"(r5), "r"(r7) : "memory");
    return r0;
}

void *stdin = (void *)1, *stdout = (void *)2, *stderr = (void *)3; /* (a FILE * is its file descriptor + 1) */

static void leave(int code)
{
    for (;;)
        sys6(SYS_EXIT_GROUP, code, 0, 0, 0, 0, 0);
}

static void put(int fd, const char *text, size_t length)
{
    while (length > 0) {
        long done = sys6(SYS_WRITE, fd, (long)text, (long)length, 0, 0, 0);
        if (done <= 0)
            leave(4);
        text += done;
        length -= (size_t)done;
    }
}

static void unsupported(const char *what)
{
    put(2, "armv6_libc: not supported: ", 27);
    put(2, what, 1);
    put(2, "\n", 1);
    leave(3);
}

int main(int argc, char **argv);

void start(long *stack)
{
    leave(main((int)stack[0], (char **)(stack + 1)));
}

__asm__(".text\n.global _start\n_start:\n\tmov r0, sp\n\tbl start\n");

size_t strlen(const char *s)
{
    size_t n = 0;
    while (s[n])
        n++;
    return n;
}

int strcmp(const char *a, const char *b)
{
    while (*a && *a == *b)
        a++, b++;
    return (unsigned char)*a - (unsigned char)*b;
}

void *memset(void *to, int value, size_t n)
{
    unsigned char *p = to;
    while (n--)
        *p++ = (unsigned char)value;
    return to;
}

void *memcpy(void *to, const void *from, size_t n)
{
    unsigned char *p = to;
    const unsigned char *q = from;
    while (n--)
        *p++ = *q++;
    return to;
}

long strtol(const char *s, char **end, int base)
{
    long value = 0;
    int negative = 0;
    if (base != 10)
        unsupported("b");
    while (*s == ' ' || *s == '\t' || *s == '\n')
        s++;
    if (*s == '-' || *s == '+')
        negative = *s++ == '-';
    while (*s >= '0' && *s <= '9')
        value = value * 10 + (*s++ - '0');
    if (end)
        *end = (char *)s;
    return negative ? -value : value;
}

void *mmap(void *address, size_t length, int protection, int flags, int fd, long offset)
{
    if (offset & 4095)
        unsupported("o");
    return (void *)sys6(SYS_MMAP2, (long)address, (long)length, protection, flags, fd, offset >> 12);
}

int munmap(void *address, size_t length)
{
    return (int)sys6(SYS_MUNMAP, (long)address, (long)length, 0, 0, 0, 0);
}

int madvise(void *address, size_t length, int advice)
{
    return (int)sys6(SYS_MADVISE, (long)address, (long)length, advice, 0, 0, 0);
}

void *calloc(size_t count, size_t size) /* a mapping each (zeroed by the kernel), its length before it */
{
    uint64_t bytes = (uint64_t)count * size + 8;
    long mapped;
    if (bytes > 0x7fffffffu)
        return NULL;
    mapped = (long)mmap(NULL, (size_t)bytes, 3 /* PROT_READ | PROT_WRITE */, 0x22 /* MAP_PRIVATE | MAP_ANONYMOUS */,
                        -1, 0);
    if ((unsigned long)mapped > 0xfffff000ul) /* -errno */
        return NULL;
    *(size_t *)mapped = (size_t)bytes;
    return (char *)mapped + 8;
}

void free(void *p)
{
    if (p)
        munmap((char *)p - 8, *(size_t *)((char *)p - 8));
}

long clock(void) /* (the times are printed in "solve" mode only) */
{
    return 0;
}

int clock_gettime(int clock, long *time)
{
    (void)clock;
    time[0] = time[1] = 0;
    return 0;
}

static char buffer[4096];
static size_t buffered, taken;

char *fgets(char *line, int size, void *stream)
{
    int n = 0;
    if (stream != stdin)
        unsupported("f");
    while (n < size - 1) {
        if (taken == buffered) {
            long got = sys6(SYS_READ, 0, (long)buffer, sizeof buffer, 0, 0, 0);
            if (got <= 0)
                break;
            buffered = (size_t)got;
            taken = 0;
        }
        line[n++] = buffer[taken++];
        if (line[n - 1] == '\n')
            break;
    }
    if (n == 0)
        return NULL;
    line[n] = '\0';
    return line;
}

static int blank(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

int __isoc99_sscanf(const char *s, const char *format, ...)
{
    va_list args;
    int assigned = 0;
    va_start(args, format);
    for (; *format; format++) {
        if (blank(*format)) {
            while (blank(*s))
                s++;
        } else if (*format != '%') {
            if (*s++ != *format)
                break;
        } else {
            long width = strtol(format + 1, (char **)&format, 10);
            while (blank(*s))
                s++;
            if (!*s)
                break;
            if (*format == 's') {
                char *to = va_arg(args, char *);
                while (*s && !blank(*s) && (width == 0 || width-- > 0))
                    *to++ = *s++;
                *to = '\0';
            } else if (*format == 'd') {
                const char *start = s;
                long value = strtol(s, (char **)&s, 10);
                if (s == start || (s == start + 1 && (*start == '-' || *start == '+')))
                    break;
                *va_arg(args, int *) = (int)value;
            } else {
                unsupported(format);
            }
            assigned++;
        }
    }
    va_end(args);
    return assigned;
}

static const uint64_t TENS[20] = {
    10000000000000000000ull, 1000000000000000000ull, 100000000000000000ull, 10000000000000000ull,
    1000000000000000ull, 100000000000000ull, 10000000000000ull, 1000000000000ull, 100000000000ull,
    10000000000ull, 1000000000ull, 100000000ull, 10000000ull, 1000000ull, 100000ull, 10000ull, 1000ull,
    100ull, 10ull, 1ull};

static void number(int fd, uint64_t value, int negative) /* by subtraction: no division */
{
    char digits[24];
    size_t n = 0;
    int i, started = 0;
    if (negative)
        digits[n++] = '-';
    for (i = 0; i < 20; i++) {
        char digit = '0';
        while (value >= TENS[i]) {
            value -= TENS[i];
            digit++;
        }
        if (digit != '0' || started || i == 19) {
            digits[n++] = digit;
            started = 1;
        }
    }
    put(fd, digits, n);
}

static int print(int fd, const char *format, va_list args)
{
    const char *plain = format;
    for (; *format; format++) {
        if (*format != '%')
            continue;
        put(fd, plain, (size_t)(format - plain));
        format++;
        if (*format == 's') {
            const char *text = va_arg(args, const char *);
            put(fd, text, strlen(text));
        } else if (*format == 'd') {
            int value = va_arg(args, int);
            number(fd, value < 0 ? (uint64_t)-(int64_t)value : (uint64_t)value, value < 0);
        } else if (format[0] == 'l' && format[1] == 'l' && format[2] == 'u') {
            number(fd, va_arg(args, unsigned long long), 0);
            format += 2;
        } else if (*format == '%') {
            put(fd, "%", 1);
        } else {
            unsupported(format);
        }
        plain = format + 1;
    }
    put(fd, plain, (size_t)(format - plain));
    return 0;
}

int printf(const char *format, ...)
{
    va_list args;
    va_start(args, format);
    print(1, format, args);
    va_end(args);
    return 0;
}

int fprintf(void *stream, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    print((int)(long)stream - 1, format, args);
    va_end(args);
    return 0;
}

size_t fwrite(const void *data, size_t size, size_t count, void *stream)
{
    put((int)(long)stream - 1, data, size * count);
    return count;
}
