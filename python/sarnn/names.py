"""The name of an export (`--name NAME`): which names the exporter takes, and the preprocessor names made from it.

NAME becomes the C++ namespace of X.hpp, the prefix of the C API's functions (NAME_step) and of its macros, and the
include guards of X.hpp and X.h. check() refuses a name that would not compile there or would change what other
code means: not an identifier, reserved (a leading underscore, "__"), a C or C++ keyword, a name the C or C++
standard library declares or defines (NULL, errno, stdin, EOF, INT_MAX, size_t, printf, main, ...), a macro gcc
or clang predefine without a leading underscore (linux, unix, i386, ...), sarnn and std.

macro_prefix() is NAME in upper case when NAME has no upper-case letter (net: NET_IN_SIZE) and NAME as given
otherwise (Net: Net_IN_SIZE), so two names never share the C macros; a name with upper-case letters and none in
lower case (NET) would share them with its lower-case twin (net) and is refused. The include guards are made from
the same prefix (SARNN_EXPORT_NET_HPP for net, SARNN_EXPORT_Net_HPP for Net), so each name has its own.
"""
import re

from sarnn.errors import ExportError

# C11/C17/C23 and C++20 keywords, alternative tokens and C's keyword macros.
KEYWORDS = """
    alignas alignof and and_eq asm auto bitand bitor bool break case catch char char8_t char16_t char32_t class
    compl concept const consteval constexpr constinit const_cast continue co_await co_return co_yield decltype
    default delete do double dynamic_cast else enum explicit export extern false float for friend goto if inline
    int long mutable namespace new noexcept not not_eq nullptr operator or or_eq private protected public
    register reinterpret_cast requires restrict return short signed sizeof static static_assert static_cast struct
    switch template this thread_local throw true try typedef typeid typename typeof typeof_unqual union unsigned
    using virtual void volatile wchar_t while xor xor_eq complex imaginary noreturn main
"""

# Macros of the C standard headers (and their C++ <c...> forms) that an identifier can spell without a leading
# underscore; lower-case and mixed-case ones matter most (upper-case-only names are refused anyway, see above).
MACROS = """
    NULL EOF BUFSIZ FILENAME_MAX FOPEN_MAX L_tmpnam SEEK_CUR SEEK_END SEEK_SET TMP_MAX stdin stdout stderr
    errno EDOM EILSEQ ERANGE assert static_assert offsetof va_arg va_copy va_end va_start setjmp longjmp
    EXIT_FAILURE EXIT_SUCCESS RAND_MAX MB_CUR_MAX MB_LEN_MAX CHAR_BIT CHAR_MAX CHAR_MIN SCHAR_MAX SCHAR_MIN
    UCHAR_MAX SHRT_MAX SHRT_MIN USHRT_MAX INT_MAX INT_MIN UINT_MAX LONG_MAX LONG_MIN ULONG_MAX LLONG_MAX LLONG_MIN
    ULLONG_MAX SIZE_MAX PTRDIFF_MAX PTRDIFF_MIN SIG_ATOMIC_MAX SIG_ATOMIC_MIN WCHAR_MAX WCHAR_MIN WINT_MAX WINT_MIN
    INTMAX_MAX INTMAX_MIN UINTMAX_MAX INTPTR_MAX INTPTR_MIN UINTPTR_MAX WEOF
    FLT_MAX FLT_MIN FLT_EPSILON FLT_DIG FLT_MANT_DIG DBL_MAX DBL_MIN DBL_EPSILON DBL_DIG DBL_MANT_DIG LDBL_MAX
    LDBL_MIN LDBL_EPSILON FLT_RADIX FLT_ROUNDS FLT_EVAL_METHOD DECIMAL_DIG
    HUGE_VAL HUGE_VALF HUGE_VALL INFINITY NAN FP_INFINITE FP_NAN FP_NORMAL FP_SUBNORMAL FP_ZERO MATH_ERRNO
    MATH_ERREXCEPT math_errhandling fpclassify isfinite isinf isnan isnormal signbit isgreater isgreaterequal
    isless islessequal islessgreater isunordered
    SIGABRT SIGFPE SIGILL SIGINT SIGSEGV SIGTERM SIG_DFL SIG_ERR SIG_IGN CLOCKS_PER_SEC TIME_UTC
    LC_ALL LC_COLLATE LC_CTYPE LC_MONETARY LC_NUMERIC LC_TIME bool true false alignas alignof noreturn
    thread_local complex imaginary I ONCE_FLAG_INIT
"""

# Macros gcc and clang predefine in their GNU modes (-std=gnu*, the default) that do not start with an underscore.
PREDEFINED = "linux unix i386 sun sparc mips vax arm aarch64 x86_64 amd64 i686 ppc powerpc"

# Types, objects and functions of the C standard library (C17/C23) that C++ also declares in std:: and, through
# the C headers, in the global namespace.
LIBRARY = """
    size_t ptrdiff_t max_align_t nullptr_t wchar_t wint_t wctype_t wctrans_t mbstate_t FILE fpos_t va_list jmp_buf
    sig_atomic_t clock_t time_t tm timespec div_t ldiv_t lldiv_t float_t double_t fenv_t fexcept_t lconv
    int8_t int16_t int32_t int64_t uint8_t uint16_t uint32_t uint64_t int_least8_t int_least16_t int_least32_t
    int_least64_t uint_least8_t uint_least16_t uint_least32_t uint_least64_t int_fast8_t int_fast16_t int_fast32_t
    int_fast64_t uint_fast8_t uint_fast16_t uint_fast32_t uint_fast64_t intptr_t uintptr_t intmax_t uintmax_t
    char16_t char32_t char8_t imaxdiv_t once_flag thrd_t mtx_t cnd_t tss_t memory_order atomic_flag
    printf fprintf sprintf snprintf vprintf vfprintf vsprintf vsnprintf scanf fscanf sscanf vscanf vfscanf vsscanf
    fopen freopen fclose fflush fread fwrite fgetc fgets fputc fputs getc getchar gets putc putchar puts ungetc
    fseek ftell rewind fgetpos fsetpos clearerr feof ferror perror remove rename tmpfile tmpnam setbuf setvbuf
    malloc calloc realloc free aligned_alloc abort atexit at_quick_exit exit quick_exit getenv system
    bsearch qsort abs labs llabs div ldiv lldiv atof atoi atol atoll strtod strtof strtold strtol strtoll strtoul
    strtoull rand srand mblen mbtowc wctomb mbstowcs wcstombs
    memcpy memmove memset memcmp memchr strcpy strncpy strcat strncat strcmp strncmp strcoll strxfrm strchr strrchr
    strspn strcspn strpbrk strstr strtok strlen strerror strdup strndup
    isalnum isalpha isblank iscntrl isdigit isgraph islower isprint ispunct isspace isupper isxdigit tolower toupper
    iswalpha iswdigit iswspace towlower towupper
    acos asin atan atan2 cos sin tan acosh asinh atanh cosh sinh tanh exp exp2 expm1 frexp ldexp log log10 log1p
    log2 logb ilogb modf scalbn scalbln cbrt fabs hypot pow sqrt erf erfc lgamma tgamma ceil floor nearbyint rint
    lrint llrint round lround llround trunc fmod remainder remquo copysign nan nextafter nexttoward fdim fmax fmin
    fma acosf sinf cosf tanf expf logf powf sqrtf fabsf floorf ceilf roundf truncf fmaxf fminf
    clock time difftime mktime asctime ctime gmtime localtime strftime timespec_get
    signal raise setlocale localeconv
    thrd_create mtx_init cnd_init call_once
"""

# Names of C++'s std namespace that are also namespaces or common globals.
CPP = "std posix sarnn operator new delete"

RESERVED = frozenset((KEYWORDS + MACROS + PREDEFINED + LIBRARY + CPP).split())


def check(name):
    """Raises ExportError (one line) unless `name` can name an export (see the module docstring)."""
    if not isinstance(name, str) or not re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*", name) or "__" in name:
        raise ExportError(f"name {name!r} is not a usable C++ namespace name (letters, digits and single "
                          "underscores, starting with a letter)")
    if name in RESERVED:
        raise ExportError(f"name {name!r} cannot name the export: it is a C or C++ keyword, a name of the C or C++ "
                          "standard library, a macro the compilers predefine, or taken (sarnn, std)")
    if name != name.lower() and name == name.upper():
        raise ExportError(f"name {name!r} is in upper case only: its C macros would be those of {name.lower()!r} "
                          f"({name}_IN_SIZE, ...); use {name.lower()!r} (the macros are the same) or a name with a "
                          "lower-case letter")


def macro_prefix(name):
    """The prefix of the C API's macros: NAME in upper case when it has no upper-case letter, else NAME."""
    return name.upper() if name == name.lower() else name


def guard(name, extension):
    """The include guard of X.hpp (extension "HPP") or X.h ("H"): SARNN_EXPORT_<macro_prefix(name)>_<extension>."""
    return f"SARNN_EXPORT_{macro_prefix(name)}_{extension}"
