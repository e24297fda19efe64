// exercise_list.cpp — every exercise, in order.
#include "exercises/exercise_list.h"

#include <cstdio>

#include "exercises/exercise_parts.h"

const std::vector<Exercise>& exercises() {
    static const std::vector<Exercise> all = [] {
        std::vector<Exercise> list = attention_exercises();
        for (auto part : {layer_exercises(), later_exercises()}) list.insert(list.end(), part.begin(), part.end());
        return list;
    }();
    return all;
}

std::string exercise_file(std::size_t index) {
    char number[8];
    std::snprintf(number, sizeof number, "%02zu", index + 1);
    return std::string(number) + "_" + exercises()[index].name + ".cpp";
}
