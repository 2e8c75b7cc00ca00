# Lanes — a Kanban board for the terminal.
#   make run    build and open a board (BOARD=path, default lanes.md)
#   make test   every unit test and the real-terminal tests
#   make bench  the benchmarks (release build)

SWIFT ?= swift
BOARD ?= lanes.md
BIN := .build/debug/lanes

.PHONY: all deps build run test unit e2e bench clean

all: build

deps:
	@./scripts/ensure-deps --all

build: deps
	$(SWIFT) build

run: build
	$(BIN) $(BOARD)

unit: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test

e2e: build
	python3 -m pytest -q Tests/e2e

test: unit e2e

bench: deps
	@echo "make bench: the benchmarks are not written yet"

clean:
	rm -rf .build
