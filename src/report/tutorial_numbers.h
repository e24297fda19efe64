// tutorial_numbers.h — the numbers the tutorial prints, and finding the ones that are wrong.
//
// The data file stores each number exactly as the tutorial prints it, as a string, under
// tutorial.printed.<result name> ("0.468", "9.05E-04", "11"). A printed number is right when
// it is a correct rounding of the exact value: |exact − printed| ≤ half a unit of its last
// digit ("0.468" allows 0.0005, "9.05E-04" allows 0.0000005). Anything else is an erratum.
#pragma once
#include <string>
#include <vector>

#include "io/data_file.h"
#include "io/results.h"

struct Printed {
    std::string text;  // as printed
    double value;      // what it says
    double half_unit;  // half a unit in its last printed digit
    int decimals;      // digits after the point (of the mantissa, in "9.05E-04")
    char notation;     // 'f' for fixed, 'e' or 'E' for an exponent
};

Printed parse_printed(const std::string& text);  // throws std::invalid_argument if not a number

// The exact value written with the printed number's precision and notation:
// exact 0.063383 for printed "0.064" -> "0.063"; for "9.05E-04" -> "9.05E-04".
std::string round_like(double exact, const Printed& printed);

struct PrintedCheck {
    std::string name;      // result name, e.g. "softmax_XXt"
    std::size_t row, col;  // position in that result
    Printed printed;
    double exact;
    bool erratum;  // the printed number is not a correct rounding of the exact one
};

// The printed numbers belong to the tutorial's own inputs, stored under tutorial.inputs: the
// key of the first of those the data file's inputs differ from, or "" when they are the same.
// A reader who changed X in a copy is not told that the tutorial printed the wrong numbers.
std::string own_inputs_changed(const DataFile& data);

// True when the data file holds the tutorial's own inputs (its tutorial.inputs, unchanged): the
// numbers the tutorial printed may then be quoted beside ours.
bool tutorial_inputs(const DataFile& data);

// Every printed number of the data file beside the computed value it claims to show — none when
// the inputs are not the tutorial's own. Errors (unknown result name, shape or format problems)
// are DataErrors.
std::vector<PrintedCheck> compare_printed(const Results& results, const DataFile& data);

// How many numbers the tutorial printed for this chapter (0 when the data file holds none).
std::size_t printed_count(const DataFile& data);

// Checks our errata against the oracle's list in tutorial.errata ([{"name","row","col"}, …]):
// every printed number counts once, passing when both agree on erratum-or-not.
CheckReport check_errata(const std::vector<PrintedCheck>& checks, const DataFile& data);
