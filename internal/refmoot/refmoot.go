// Package refmoot is a minimal reference orchestrator: the floor moot's
// own cost is measured against. For each stage of a debate it spawns the
// same command engine with the same prompts (on stdin) and environment as
// moot would, in parallel up to a limit, and makes about as many durable
// writes as moot does — each call's raw stdout and answer file (temp file,
// fsync, rename), one event line per call start and finish, one summary
// file per stage and one fsync per folder at the stage's end — and
// nothing else: no parsing, no validation, no snapshots, no lock.
package refmoot

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
)

// Call is one engine call: the environment moot gives it and its prompt.
type Call struct {
	Round  int
	Role   string
	ID     string
	Prompt []byte
}

// Config is one reference run: Stages run one after another, the calls
// of a stage in parallel up to Parallel (0: all at once).
type Config struct {
	Argv     []string
	Env      []string
	Dir      string
	Parallel int
	Stages   [][]Call
}

// Run runs every stage of cfg and writes its files under cfg.Dir; it
// returns the first error (a failed spawn, a failed write).
func Run(ctx context.Context, cfg Config) error {
	if err := os.MkdirAll(cfg.Dir, 0o700); err != nil {
		return fmt.Errorf("refmoot: create %s: %w", cfg.Dir, err)
	}
	ev, err := os.OpenFile(filepath.Join(cfg.Dir, "events.jsonl"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return fmt.Errorf("refmoot: open the event log: %w", err)
	}
	defer ev.Close()
	var evMu sync.Mutex
	event := func(s string) {
		evMu.Lock()
		defer evMu.Unlock()
		_, _ = ev.WriteString(s + "\n")
	}
	limit := cfg.Parallel
	for si, stage := range cfg.Stages {
		dir := filepath.Join(cfg.Dir, "stage-"+strconv.Itoa(si))
		raw := filepath.Join(dir, "raw")
		if err := os.MkdirAll(raw, 0o700); err != nil {
			return fmt.Errorf("refmoot: create %s: %w", raw, err)
		}
		n := limit
		if n <= 0 || n > len(stage) {
			n = len(stage)
		}
		sem := make(chan struct{}, n)
		errs := make([]error, len(stage))
		var wg sync.WaitGroup
		for i, c := range stage {
			wg.Add(1)
			go func() {
				defer wg.Done()
				sem <- struct{}{}
				defer func() { <-sem }()
				event(`{"type":"call_started","id":"` + c.ID + `"}`)
				errs[i] = call(ctx, cfg, c, dir, raw)
				event(`{"type":"call_finished","id":"` + c.ID + `"}`)
			}()
		}
		wg.Wait()
		if err := errors.Join(errs...); err != nil {
			return err
		}
		if err := writeDurable(filepath.Join(dir, "summary.md"), []byte("stage "+strconv.Itoa(si)+"\n")); err != nil {
			return err
		}
		for _, d := range []string{raw, dir, cfg.Dir} {
			if err := syncDir(d); err != nil {
				return err
			}
		}
		if err := ev.Sync(); err != nil {
			return fmt.Errorf("refmoot: sync the event log: %w", err)
		}
	}
	return nil
}

// call spawns the engine for c and writes its raw stdout and its answer.
func call(ctx context.Context, cfg Config, c Call, dir, raw string) error {
	cmd := exec.CommandContext(ctx, cfg.Argv[0], cfg.Argv[1:]...)
	cmd.Env = append(append([]string{}, cfg.Env...),
		"MOOT_ROLE="+c.Role, "MOOT_SOLVER_ID="+c.ID, "MOOT_ROUND="+strconv.Itoa(c.Round))
	cmd.Dir = cfg.Dir
	cmd.Stdin = bytes.NewReader(c.Prompt)
	out, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("refmoot: call %s of round %d: %w", c.ID, c.Round, err)
	}
	if err := writeDurable(filepath.Join(raw, c.ID+".stdout"), out); err != nil {
		return err
	}
	return writeDurable(filepath.Join(dir, c.ID+".md"), out)
}

// writeDurable writes name atomically: a temp file, fsync, rename (the
// folder's fsync is the stage's).
func writeDurable(name string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(name), ".tmp-*")
	if err != nil {
		return fmt.Errorf("refmoot: write %s: %w", name, err)
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), name)
	}
	if err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("refmoot: write %s: %w", name, err)
	}
	return nil
}

func syncDir(d string) error {
	f, err := os.Open(d)
	if err != nil {
		return fmt.Errorf("refmoot: sync %s: %w", d, err)
	}
	defer f.Close()
	if err := f.Sync(); err != nil {
		return fmt.Errorf("refmoot: sync %s: %w", d, err)
	}
	return nil
}
