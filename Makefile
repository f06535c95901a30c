# RaceLab: every target builds with ThreadSanitizer (labs are only judged under TSan).
SWIFT ?= swift
# Package.swift finds the labs by listing Labs/; SwiftPM's manifest cache would not notice a
# new lab folder, so every build re-reads the manifest (a fraction of a second).
SANITIZE = --sanitize=thread --manifest-cache none
RACELAB = .build/debug/racelab
RUNS ?= 3

.PHONY: all build run test lab clean

all: run

build:
	$(SWIFT) build $(SANITIZE)

## make run: every lab, broken vs fixed, as one table (exit 0 when every expectation holds).
run: build
	$(RACELAB) run --all --runs $(RUNS)

## make test: the test suite under ThreadSanitizer (any race in the tests fails the run).
## XCTest only: it runs tests on the main thread, which the scenarios need (Swift Testing does not).
test:
	$(SWIFT) test $(SANITIZE) --disable-swift-testing

## make lab LAB=list-adder: one lab, every variant including your exercise.
lab: build
	@if [ -z "$(LAB)" ]; then echo "make lab: say which lab, e.g. make lab LAB=list-adder (racelab list shows them)"; exit 2; fi
	$(RACELAB) run $(LAB) --variant all --runs $(RUNS)

clean:
	rm -rf .build
