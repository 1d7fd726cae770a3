package main

import (
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// A machine that shares two cores between the clients and the server is
// noisy: one run's p99 can be half or twice the next one's. The load mode
// therefore runs, when asked, several times with fresh servers,
// interleaving the binaries (-bin a,b) and canvas counts (-canvases 1,32)
// so that drift in the machine's speed hits every variant alike, and
// prints the median of each variant and the pairwise ratios.

// variant is one binary at one canvas count.
type variant struct {
	bin      string
	canvases int
}

// runs holds every level's results of one variant, one entry per repeat.
type runs map[int][]result // clients → results

// parseInts reads a comma-separated list of positive integers.
func parseInts(flagName, s string) ([]int, error) {
	var out []int
	for _, part := range strings.Split(s, ",") {
		v, err := strconv.Atoi(strings.TrimSpace(part))
		if err != nil || v < 1 {
			return nil, fmt.Errorf("bad -%s value %q", flagName, part)
		}
		out = append(out, v)
	}
	return out, nil
}

// variants lists what one repeat runs, in order.
func (cfg config) variants() []variant {
	var out []variant
	for _, bin := range cfg.bins {
		for _, cv := range cfg.canvasCounts {
			out = append(out, variant{bin, cv})
		}
	}
	return out
}

// multi reports whether the run compares or repeats (and so prints a
// summary and labels rows by variant).
func (cfg config) multi() bool {
	return cfg.repeat > 1 || len(cfg.bins) > 1 || len(cfg.canvasCounts) > 1
}

func (v variant) label(cfg config) string {
	var parts []string
	if cfg.label != "" {
		parts = append(parts, cfg.label)
	}
	if len(cfg.bins) > 1 {
		parts = append(parts, filepath.Base(v.bin))
	}
	if len(cfg.canvasCounts) > 1 {
		parts = append(parts, "cv"+strconv.Itoa(v.canvases))
	}
	return strings.Join(parts, "/")
}

// repeatLoads runs the load mode cfg.repeat times over every variant and
// prints each run's rows, then the medians and ratios.
func repeatLoads(cfg config) error {
	all := map[variant]runs{}
	vs := cfg.variants()
	printHeader(cfg)
	for r := 0; r < cfg.repeat; r++ {
		for _, v := range vs {
			c := cfg
			c.bin, c.canvases, c.label = v.bin, v.canvases, v.label(cfg)
			res, err := loadLevels(c)
			if err != nil {
				return err
			}
			if all[v] == nil {
				all[v] = runs{}
			}
			for clients, rr := range res {
				all[v][clients] = append(all[v][clients], rr)
			}
		}
	}
	if cfg.multi() && !cfg.jsonOut {
		summarise(cfg, vs, all)
	}
	return nil
}

// summarise prints, per variant and level, the median of ops/s, p50 and
// p99 over the repeats with the p99's range, then each variant's median
// ratio of ops/s to the first variant's, taken repeat by repeat.
func summarise(cfg config, vs []variant, all map[variant]runs) {
	fmt.Printf("\nmedians over %d run(s)\n%-24s %6s %10s %9s %9s  %s\n", cfg.repeat, "variant", "C", "ops/s", "p50", "p99", "p99 range")
	for _, v := range vs {
		for _, clients := range cfg.levels {
			rs := all[v][clients]
			rates, p50s, p99s := make([]float64, len(rs)), make([]time.Duration, len(rs)), make([]time.Duration, len(rs))
			for i, r := range rs {
				rates[i], p50s[i], p99s[i] = r.rate(), r.percentile(50), r.percentile(99)
			}
			slices.Sort(p99s)
			fmt.Printf("%-24s %6d %10.0f %9s %9s  %s..%s\n", v.label(cfg), clients, median(rates),
				fmtDur(median(p50s)), fmtDur(median(p99s)), fmtDur(p99s[0]), fmtDur(p99s[len(p99s)-1]))
		}
	}
	if len(vs) < 2 {
		return
	}
	fmt.Printf("\nops/s against %s, median of the per-run ratios\n", vs[0].label(cfg))
	for _, v := range vs[1:] {
		for _, clients := range cfg.levels {
			base, cur := all[vs[0]][clients], all[v][clients]
			ratios := make([]float64, len(cur))
			var each []string
			for i := range cur {
				ratios[i] = cur[i].rate() / base[i].rate() * 100
				each = append(each, strconv.FormatFloat(ratios[i], 'f', 0, 64)+"%")
			}
			fmt.Printf("%-24s %6d %9.0f%%  (%s)\n", v.label(cfg), clients, median(ratios), strings.Join(each, " "))
		}
	}
}

func (r result) rate() float64 { return float64(r.ops) / r.elapsed.Seconds() }

// median returns the middle value of xs (the mean of the two middle ones
// for an even count); xs is not changed.
func median[T float64 | time.Duration](xs []T) T {
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
