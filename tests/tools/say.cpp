// say.cpp — build/say NAME ARG…: one line of the Makefile's or a script's own, in the reader's
// language (--lang zh|en, else the locale, as every chapter chooses): report/script_lines.h.
// Exit code 2, with one line, for a name there is none of.
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "report/options.h"
#include "report/script_lines.h"

int main(int argc, char** argv) {
    try {
        choose_language(argc, argv);
        std::vector<std::string> words;
        for (int i = 1; i < argc; ++i) {
            if (std::string(argv[i]) == "--lang") {
                ++i;
                continue;
            }
            words.push_back(argv[i]);
        }
        if (words.empty()) throw std::invalid_argument("say: expected the name of a line");
        const std::string name = words[0];
        words.erase(words.begin());
        std::cout << script_line(name, words) << "\n";
        return 0;
    } catch (const std::exception& e) {
        std::cerr << "error: " << e.what() << "\n";
        return 2;
    }
}
