# RaceLab: every target builds with ThreadSanitizer (labs are only judged under TSan).
SWIFT ?= swift
# Package.swift finds the labs by listing Labs/; SwiftPM's manifest cache would not notice a
# new lab folder, so every build re-reads the manifest (a fraction of a second).
SANITIZE = --sanitize=thread --manifest-cache none --explicit-target-dependency-import-check error
# Where SwiftPM puts the products depends on the build system and the platform: asked, when a
# recipe needs racelab (`=`, so targets that do not use it never ask).
RACELAB = $(patsubst $(CURDIR)/%,%,$(shell $(SWIFT) build --sanitize=thread --show-bin-path 2>/dev/null || echo .build/debug))/racelab
RUNS ?= 2

.PHONY: all build run soak test lab check watch hint progress format lint grade student-kit calibrate compiler-check clean

all: run

build:
	@$(SWIFT) build $(SANITIZE) || { echo "make: the build failed (errors above). An error marked [#StrictMemorySafety] is in code that must be memory-safe Swift: no pointers, raw memory or 'unsafe'; use a lock, a queue, an Atomic or a Mutex instead (racelab policy lists what an exercise may use)."; exit 1; }

## make run: every lab, broken vs fixed, as one table (exit 0 when every expectation holds).
## RUNS=2 children per variant and mode (explore runs once: it is systematic); make run RUNS=5 for more.
## RUN_LOGS=DIR keeps each child's standard error there (TSan's reports, crash stacks).
run: build
	$(RACELAB) run --all --runs $(RUNS) $(if $(RUN_LOGS),--logs $(RUN_LOGS))

## make soak: the same table with more children per row (SOAK_RUNS, default 6): a fix that is
## clean only most of the time shows here. CI runs it beside make run; their rows must agree.
SOAK_RUNS ?= 6
soak: build
	$(RACELAB) run --all --runs $(SOAK_RUNS) $(if $(RUN_LOGS),--logs $(RUN_LOGS))

## make test: the test suite under ThreadSanitizer (any race in the tests fails the run).
## XCTest only: it runs tests on the main thread, which the scenarios need (Swift Testing does not).
## Each test in a process of its own, TEST_WORKERS at once (default twice the cores: most tests
## wait on lab children; more than that starves the children on a small machine).
CORES := $(shell getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)
TEST_WORKERS ?= $(shell echo $$((2 * $(CORES))))
test:
	$(SWIFT) test $(SANITIZE) --disable-swift-testing --parallel --num-workers $(TEST_WORKERS)
	@echo "make test: every test passed, under ThreadSanitizer, $(TEST_WORKERS) at a time"

## make lab LAB=list-adder: the broken variant caught (the demo), then your exercise checked
## exactly as the grader will (racelab check: what is still wrong, in plain words).
lab: build
	@if [ -z "$(LAB)" ]; then echo "make lab: say which lab, e.g. make lab LAB=list-adder (racelab list shows them)"; exit 2; fi
	$(RACELAB) run $(LAB) --variant broken --runs 1
	@$(RACELAB) check $(LAB) || echo "(make lab: your exercise does not pass yet, as expected before you fix it; then: make check LAB=$(LAB))"

## make check LAB=list-adder: build (your edits included), then check your exercise as the grader will.
check: build
	@if [ -z "$(LAB)" ]; then echo "make check: say which lab, e.g. make check LAB=list-adder (racelab list shows them)"; exit 2; fi
	$(RACELAB) check $(LAB)

## make watch LAB=list-adder: check again each time the exercise is saved (h: a hint, q: stop).
watch: build
	@if [ -z "$(LAB)" ]; then echo "make watch: say which lab, e.g. make watch LAB=list-adder (racelab list shows them)"; exit 2; fi
	@$(RACELAB) watch $(LAB)

## make hint LAB=list-adder: the lesson's next hint. make progress: every lab's status.
hint: build
	@if [ -z "$(LAB)" ]; then echo "make hint: say which lab, e.g. make hint LAB=list-adder"; exit 2; fi
	@$(RACELAB) hint $(LAB)

progress: build
	@$(RACELAB) progress

## make grade [GRADE_ARGS="--format junit --output grade.xml"]: grade every exercise.
grade: build
	$(RACELAB) grade $(GRADE_ARGS)

## make student-kit [KIT=dir]: the package without the reference solutions, plus its manifest.
KIT ?= student-kit
student-kit: build
	$(RACELAB) export $(KIT)

## make format / make lint: the harness's Swift as swift format lays it out (.swift-format). Not
## the labs or the corpus: their lessons quote them by line number.
FORMATTED = Sources Tests/RaceLabTests Tests/LabsTests Package.swift
format:
	$(SWIFT) format format --in-place --recursive $(FORMATTED)
lint:
	$(SWIFT) format lint --strict --recursive $(FORMATTED)
	@$(SWIFT) scripts/long-functions.swift 60

## make calibrate: measure how fast each broken variant is caught under stress (Grading/).
calibrate: build
	$(RACELAB) calibrate

## make compiler-check: compile every lab's code in Swift 6 language mode too, and keep what the
## compiler says in Grading/compiler.json (the COMPILER column of make run). Seconds, not minutes.
compiler-check: build
	$(RACELAB) compiler-check

clean:
	rm -rf .build
