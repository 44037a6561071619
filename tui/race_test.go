//go:build race

package tui

// raceDetector is set when the tests run under -race (see TestMain).
const raceDetector = true
