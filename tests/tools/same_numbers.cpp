// same_numbers.cpp — build/same_numbers A.json B.json: whether two runs of a chapter's --json
// hold the same numbers, bit for bit, key by key; the measured quantities (timings, the thread
// count, allocator bytes: what a machine's speed decides, not its arithmetic) set aside, each
// named below. Prints one line; exit 0 when every compared key is equal, 1 when one is not, 2
// when a file cannot be read. Used by tests/cross_machines.sh.
#include <fstream>
#include <iostream>
#include <set>
#include <string>

#include "../json.h"

namespace {

// The keys that measure this machine rather than compute on it: the one list.
bool measured(const std::string& key) {
    static const std::set<std::string> keys = {"threads"};
    return keys.count(key) > 0 || key.find("seconds") != std::string::npos ||
           key.find("per_second") != std::string::npos || key.find("exponent") != std::string::npos;
}

// The first place where a and b differ, as a path ("weights[1][2]"), or "" when equal.
std::string first_difference(const Json& a, const Json& b, const std::string& path) {
    if (a.type() != b.type() || a.size() != b.size()) return path;
    if (a.is_array()) {
        for (std::size_t i = 0; i < a.size(); ++i) {
            const std::string d = first_difference(a[i], b[i], path + "[" + std::to_string(i) + "]");
            if (!d.empty()) return d;
        }
        return "";
    }
    if (a.is_object()) {
        for (auto it = a.begin(); it != a.end(); ++it) {
            if (!b.contains(it.key())) return path + "." + it.key();
            if (measured(it.key())) continue;  // a saved model's training.seconds, too
            const std::string d = first_difference(it.value(), b[it.key()], path + "." + it.key());
            if (!d.empty()) return d;
        }
        return "";
    }
    return a == b ? "" : path;  // numbers: equal as doubles, so to the last bit
}

bool read(const std::string& path, Json& j) {
    std::ifstream in(path);
    if (!in) return false;
    try {
        j = Json::parse(in);
    } catch (const std::exception&) {
        return false;
    }
    return j.is_object();
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 3) {
        std::cerr << "usage: same_numbers A.json B.json\n";
        return 2;
    }
    Json a, b;
    for (int i : {1, 2})
        if (!read(argv[i], i == 1 ? a : b)) {
            std::cout << "error: " << argv[i] << ": expected a chapter's --json output\n";
            return 2;
        }
    std::size_t compared = 0;
    for (auto it = a.begin(); it != a.end(); ++it) {
        if (measured(it.key())) continue;
        ++compared;
        const std::string d = b.contains(it.key()) ? first_difference(it.value(), b[it.key()], it.key())
                                                   : it.key() + " (missing)";
        if (!d.empty()) {
            std::cout << "differ at " << d << "\n";
            return 1;
        }
    }
    for (auto it = b.begin(); it != b.end(); ++it)
        if (!measured(it.key()) && !a.contains(it.key())) {
            std::cout << "differ at " << it.key() << " (missing)\n";
            return 1;
        }
    std::cout << "the same: " << compared << " results\n";
    return 0;
}
