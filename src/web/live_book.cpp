// live_book.cpp — the main() of the live book's WebAssembly modules (make web): chapters that run
// in the reader's browser, several in one program (live_book: chapters 1–6, 9 and 11; live_poet:
// 12 and 14). The Makefile compiles each of those chapters with its main() renamed NAME_main and
// lists a module's in LIVE_CHAPTERS as X(NAME) X(NAME) …; this main()
// runs the chapter its first argument names, with the arguments after it, as if that chapter's
// own program had been started:
//     live_book ch02_self_attention --lang zh --html /book/zh --live
// The page's Web Worker (live_worker.js) starts a fresh copy of the module for every run, so no
// chapter ever sees what an earlier run left in memory.
#include <cstring>
#include <iostream>

#define DECLARE_CHAPTER(name) int name##_main(int argc, char** argv);
LIVE_CHAPTERS(DECLARE_CHAPTER)

namespace {

struct LiveChapter {
    const char* name;
    int (*main)(int, char**);
};

#define LIST_CHAPTER(name) {#name, name##_main},
const LiveChapter live_chapters[] = {LIVE_CHAPTERS(LIST_CHAPTER)};

}  // namespace

int main(int argc, char** argv) {
    if (argc >= 2 && std::strcmp(argv[1], "--list") == 0) {  // the page asks what it may run
        for (const LiveChapter& c : live_chapters) std::cout << c.name << "\n";
        return 0;
    }
    for (const LiveChapter& c : live_chapters)
        if (argc >= 2 && std::strcmp(argv[1], c.name) == 0)
            return c.main(argc - 1, argv + 1);  // the chapter's name is its program's name
    std::cerr << "error: live_book: expected a chapter's name first, one of:";
    for (const LiveChapter& c : live_chapters) std::cerr << " " << c.name;
    std::cerr << "\n";
    return 2;
}
