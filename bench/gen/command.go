package gen

import (
	"flag"
	"fmt"
	"io"
	"os"
	"time"
)

// Command is the seggen command line (bench/seggen): it parses args,
// writes the tree and returns the exit code. It lives here rather than in
// package main so that go test ./... tests it: bench/seggen builds only
// with -tags seggen, which keeps seggen out of go install ./... (the
// pre-commit hook's build; docs/precommit.md).
func Command(args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("seggen", flag.ContinueOnError)
	fl.SetOutput(stderr)
	var (
		n           = fl.Int("n", 1250, "number of requirements (sys + req + sreq)")
		seed        = fl.Uint64("seed", 1, "seed; the same seed gives the same bytes")
		out         = fl.String("out", "", "output folder (required; must be empty unless -force)")
		force       = fl.Bool("force", false, "write into a non-empty folder; clears an earlier seggen tree there first")
		defects     = fl.Bool("defects", false, "plant unresolved links, duplicate IDs and unknown options")
		rate        = fl.Float64("defect-rate", 0.002, "planted defects per requirement, with -defects")
		perFile     = fl.Int("per-file", 50, "nodes per file")
		filesPerDir = fl.Int("files-per-dir", 64, "files per folder before it is split in part-NN folders")
		denseMB     = fl.Float64("dense-mb", 0, "write a directive-dense tree of about this many MB instead")
		files       = fl.Int("files", 1000, "number of files, with -dense-mb")
		workers     = fl.Int("workers", 0, "files rendered at once (default GOMAXPROCS)")
		quiet       = fl.Bool("q", false, "print nothing on success")
		score       = fl.String("score", "", "write a tree in Eclipse S-CORE's shape: -n needs of the types, options and links of this metamodel.yaml")
		baseline    = fl.Bool("score-baseline", false, "with -score, the same tree mapped by a ubproject.toml instead of the metamodel (no rules)")
	)
	fl.Usage = func() {
		fmt.Fprintln(stderr, "usage: seggen -n N -seed S -out DIR [-defects] [-force]\n       seggen -dense-mb MB -files F -seed S -out DIR")
		fl.PrintDefaults()
	}
	if err := fl.Parse(args); err != nil {
		return 2
	}
	if fl.NArg() > 0 || *out == "" {
		fl.Usage()
		return 2
	}
	set := map[string]bool{}
	fl.Visit(func(f *flag.Flag) { set[f.Name] = true })

	start := time.Now()
	if *score != "" {
		data, err := os.ReadFile(*score)
		if err != nil {
			fmt.Fprintln(stderr, "seggen:", err)
			return 2
		}
		files, err := WriteScore(ScoreOptions{N: *n, Seed: *seed, Metamodel: data, Baseline: *baseline, PerFile: *perFile}, *out)
		if err != nil {
			fmt.Fprintln(stderr, "seggen:", err)
			return 1
		}
		if !*quiet {
			fmt.Fprintf(stdout, "seggen: %d S-CORE needs in %d files in %s\n", *n, files, time.Since(start).Round(time.Millisecond))
		}
		return 0
	}
	var (
		t   *Tree
		err error
	)
	if *denseMB > 0 {
		for _, name := range []string{"n", "defects", "defect-rate", "per-file"} {
			if set[name] {
				fmt.Fprintf(stderr, "seggen: -%s does not go with -dense-mb\n", name)
				return 2
			}
		}
		t, err = NewDense(DenseOptions{MB: *denseMB, Files: *files, Seed: *seed, FilesPerDir: *filesPerDir})
	} else {
		if set["files"] {
			fmt.Fprintln(stderr, "seggen: -files goes with -dense-mb only")
			return 2
		}
		t, err = New(Options{N: *n, Seed: *seed, Defects: *defects, DefectRate: *rate, PerFile: *perFile, FilesPerDir: *filesPerDir})
	}
	if err != nil {
		fmt.Fprintln(stderr, "seggen:", err)
		return 2
	}
	m, err := WriteDir(t, *out, WriteOptions{Force: *force, Workers: *workers, Warn: stderr})
	if err != nil {
		fmt.Fprintln(stderr, "seggen:", err)
		return 1
	}
	if !*quiet {
		fmt.Fprintf(stdout, "seggen: %v\n", t)
		fmt.Fprintf(stdout, "seggen: %.1f MB (%d bytes, %.0f bytes per requirement) in %s; %d planted defects; manifest %s\n",
			float64(m.Bytes)/1e6, m.Bytes, float64(m.Bytes)/float64(m.Counts.Requirements),
			time.Since(start).Round(time.Millisecond), len(m.Defects), ManifestName)
	}
	return 0
}
