// tests/firmware/heap_canary.cpp: a program that does use the heap and operator new, on purpose.
// It has no assertion of its own: its test is the no-heap check run on its ELF, whose ctest passes only when the
// check's output lists ' T malloc' (PASS_REGULAR_EXPRESSION, tests/firmware/CMakeLists.txt): this proves the check
// sees what it looks for.
// (libstdc++'s own operator new would also pull in the exception unwinder, which picolibc.ld discards:
// this one is a plain malloc.)
#include <cstddef>
#include <cstdlib>
#include <new>

void* operator new(std::size_t n) { return std::malloc(n); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

int* volatile g_kept;  // the allocation escapes: the compiler may not elide it

int main() {
    g_kept = new int(3);
    const int r = *g_kept;
    delete g_kept;
    return r == 3 ? 0 : 1;
}
