# Lanes — a Kanban board for the terminal.
#   make run    build (optimized, as make install builds it), make `lanes` a command (~/.local/bin/lanes),
#               open a board (BOARD=path, default lanes.md)
#   make test   every unit test and the real-terminal tests, ending in one verdict line
#   make man    regenerate Resources/lanes.1 from the program's own definitions
#   make bench  the benchmarks (release build)
#   make install  the release binary, the man page and the bash, zsh and fish completions under PREFIX
#               (default /usr/local)

SWIFT ?= swift
# The interpreter that runs the terminal tests: Debian's, with Debian's python3-pytest
# (scripts/ensure-deps installs it). PYTHON=… for another one that has pytest.
PYTHON ?= /usr/bin/python3
export PYTHON
BOARD ?= lanes.md
PREFIX ?= /usr/local
# The lanes make run links and opens, and make man reads: the release build, the one make install
# copies and every figure in the README is measured on (a debug lanes costs about 4× the CPU: `lanes
# show` of a 10,000-card board 116 against 29 ms). The tests build and use .build/debug/lanes.
BIN := .build/release/lanes
# Release builds link the Swift runtime and Foundation into the binary: no dynamic linking of
# them at each start (1M-card launch median 226 against 264 ms, DECISIONS #24), and an installed
# lanes needs no Swift toolchain beside it.
#
# -num-threads: a release build compiles each module whole (whole-module optimization), one job per
# module, and the modules are a chain (DragKit, LanesCore, LanesTerminal, lanes), so without it one
# core sits idle for most of the build; with it the optimizer's code generation runs on every core
# (make build from a clean clone, two cores shared with other builds: 4 min 14 s without, 2 min 59 s
# with, about 3 min 20 s of CPU either way; `lanes show` of 10,000 cards as fast).
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
RELEASE := -c release --static-swift-stdlib -Xswiftc -num-threads -Xswiftc $(JOBS)

.PHONY: all deps run-deps test-deps build run test unit e2e man bench install clean

all: build

# What building and running need (swift, ncursesw and libpq headers) ...
run-deps:
	@./scripts/ensure-deps run

# ... and what the tests add (tmux, terminfo, git, PostgreSQL server, pytest).
test-deps:
	@./scripts/ensure-deps test

deps: test-deps

# Only what make run needs (not the benchmarks, not the tests): the first build from a fresh clone is
# the newcomer's wait. The same optimized build as make install.
build: run-deps
	$(SWIFT) build $(RELEASE) --product lanes

# scripts/link-lanes: a symlink ~/.local/bin/lanes to this build, so the README's `lanes …` examples
# work in any folder; it says when ~/.local/bin is not on PATH, with the line to add.
run: build
	@./scripts/link-lanes $(BIN)
	$(BIN) $(BOARD)

unit: test-deps
	$(SWIFT) build --build-tests
	$(SWIFT) test

# -rs: a skipped test prints its reason (the interop tests without ../shared/fixtures). Four pytest-xdist
# workers, each with its own tmux server and throwaway PostgreSQL server (Tests/e2e/pg_helpers.py).
e2e: test-deps
	$(SWIFT) build
	$(PYTHON) -m pytest -q -rs -n 4 --dist load Tests/e2e

# The format check, then both kinds side by side, with their output in .build/test-results/*.log and
# one summary: counts, skips and why, failing tests by name, and a last line
# "lanes: N passed, N failed, N skipped in T". On a failure make is stopped with SIGPIPE, the one
# signal neither make nor the shell reports, so that verdict stays the last line a person sees (make's
# own "*** Error" line would read as a second verdict); the exit status is then 141, never 0.
test: test-deps
	@$(PYTHON) scripts/test-run --swift "$(SWIFT)" --python "$(PYTHON)" || { kill -PIPE $$PPID; exit 1; }

# The man page from `lanes --experimental-dump-help` and `lanes help --topics-json` (a test keeps it equal).
man: build
	$(PYTHON) scripts/gen-man $(BIN)

# Release build of the benchmark and of lanes (for the end-to-end measure), then both
# benchmarks; results on stdout and in bench-results.json. Benchmarks only report: each
# target is printed MET or MISSED. The end-to-end part also measures, in tmux, launch and
# peak RSS, release→"Dropped" and a key right after a drop at 1k/100k/1M cards (median of 7).
# The team server (#43): 200 screens on 1 and on 20 boards of 500 cards, directly and through
# PgBouncer, 30 s each (about 4 minutes), at a change every 2 s per screen; then through PgBouncer
# at the paces people keep (a change every 10 s and every 30 s, 40 s each, about 4 minutes); then a
# failover under 200 screens on 20 boards (about 1 minute; each client back within 10 s of the
# promotion). They load the whole machine while they run.
bench: test-deps
	$(SWIFT) build $(RELEASE) --product lanes-bench
	$(SWIFT) build $(RELEASE) --product lanes
	.build/release/lanes-bench
	.build/release/lanes-bench --swimlanes
	./scripts/bench-e2e .build/release/lanes .build/release/lanes-bench --cards 10000 --runs 5 \
		--latency-sizes 1000,100000,1000000 --drops 7
	./scripts/bench-idle-io .build/release/lanes .build/release/lanes-bench --cards 10000
	./scripts/pg-test-cluster with .build/release/lanes-bench --pg-load
	./scripts/pg-test-cluster with .build/release/lanes-bench --pg-flow
	./scripts/bench-team .build/release/lanes-bench --team-seconds 30
	./scripts/bench-team .build/release/lanes-bench --pooler-only --team-think 10 --team-seconds 40
	./scripts/bench-team .build/release/lanes-bench --pooler-only --team-think 30 --team-seconds 40
	./scripts/bench-team .build/release/lanes-bench --failover --team-boards 20 --team-seconds 40 --team-failover 15
	.build/release/lanes-bench --workspace --ws-cards 10000
	.build/release/lanes-bench --mcp --only 10000

# The shells' completion scripts are written by the lanes just built (swift-argument-parser makes them),
# each where its shell looks for it: bash-completion, zsh's site-functions, fish's vendor completions.
install: build
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 755 .build/release/lanes $(DESTDIR)$(PREFIX)/bin/lanes
	install -m 644 Resources/lanes.1 $(DESTDIR)$(PREFIX)/share/man/man1/lanes.1
	install -d $(DESTDIR)$(PREFIX)/share/bash-completion/completions $(DESTDIR)$(PREFIX)/share/zsh/site-functions \
		$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d
	.build/release/lanes --generate-completion-script bash > $(DESTDIR)$(PREFIX)/share/bash-completion/completions/lanes
	.build/release/lanes --generate-completion-script zsh > $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_lanes
	.build/release/lanes --generate-completion-script fish > $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/lanes.fish
	chmod 644 $(DESTDIR)$(PREFIX)/share/bash-completion/completions/lanes $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_lanes \
		$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/lanes.fish

clean:
	rm -rf .build
