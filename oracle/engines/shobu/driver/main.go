// Command tcg-oracle-shobu drives shobu.io's Duel Masters engine (github.com/sindreslungaard/duel-masters,
// module duel-masters) through tcg-oracle's JSON-lines protocol (version 2, level checkpoints, no reason
// codes). It is tcg-oracle's own code, compiled inside the engine's module by
// `python -m oracle.engines.shobu build`; see docs/shobu.md for how each decision maps onto the engine.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime/debug"

	"github.com/sirupsen/logrus"
)

// engineVersion is set at build time (-ldflags "-X main.engineVersion=...") to the source tree's commit.
var engineVersion = "unknown"

type hello struct {
	Type            string              `json:"type"`
	ProtocolVersion int                 `json:"protocol_version"`
	SchemaVersion   int                 `json:"schema_version"`
	Engine          map[string]string   `json:"engine"`
	Games           []string            `json:"games"`
	Capabilities    []string            `json:"capabilities"`
	Observation     string              `json:"observation"`
	ReasonCodes     bool                `json:"reason_codes"`
	Abilities       map[string][]string `json:"abilities"`
}

type request struct {
	Type    string                     `json:"type"`
	ID      string                     `json:"id"`
	Game    string                     `json:"game"`
	Ruleset string                     `json:"ruleset"`
	Setup   setup                      `json:"setup"`
	Script  []entry                    `json:"script"`
	Cards   map[string]json.RawMessage `json:"cards"`
}

type entry struct {
	Player string          `json:"player"`
	Kind   string          `json:"kind"`
	Args   json.RawMessage `json:"args"`
}

type decision struct {
	At      int    `json:"at"`
	Outcome string `json:"outcome"`
}

type checkpoint struct {
	After int   `json:"after"`
	State state `json:"state"`
}

type reply struct {
	Type        string       `json:"type"`
	ID          string       `json:"id"`
	Final       *state       `json:"final,omitempty"`
	Winner      *string      `json:"winner"`
	Decisions   []decision   `json:"decisions,omitempty"`
	Checkpoints []checkpoint `json:"checkpoints,omitempty"`
	Error       string       `json:"error,omitempty"`
	Skip        string       `json:"skip,omitempty"`
}

func main() {
	logrus.SetOutput(os.Stderr)
	logrus.SetLevel(logrus.ErrorLevel)
	out := bufio.NewWriter(os.Stdout)
	send := func(v any) {
		b, err := json.Marshal(v)
		if err != nil {
			b, _ = json.Marshal(reply{Type: "result", Error: "driver: cannot encode the reply: " + err.Error()})
		}
		out.Write(b)
		out.WriteByte('\n')
		out.Flush()
	}
	send(hello{
		Type: "hello", ProtocolVersion: 2, SchemaVersion: 1,
		Engine:       map[string]string{"name": "shobu-duel-masters", "version": engineVersion},
		Games:        []string{"duelmasters"},
		Capabilities: []string{"pipeline"},
		Observation:  "checkpoints", ReasonCodes: false,
		Abilities: map[string][]string{"duelmasters": declaredAbilities()},
	})
	in := bufio.NewReaderSize(os.Stdin, 1<<20)
	for {
		line, err := in.ReadBytes('\n')
		if len(line) > 0 {
			var head struct {
				Type string `json:"type"`
				ID   string `json:"id"`
			}
			if json.Unmarshal(line, &head) != nil {
				send(reply{Type: "result", Error: "driver: a request line that is not JSON"})
			} else if head.Type == "bye" {
				return
			} else if head.Type != "case" {
				send(reply{Type: "result", ID: head.ID, Error: "driver: unknown request type " + head.Type})
			} else {
				send(runRequest(line, head.ID))
			}
		}
		if err == io.EOF {
			return
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "driver: reading stdin:", err)
			return
		}
	}
}

// runRequest plays one case; a panic of the driver or the engine costs this case (an error reply).
func runRequest(line []byte, id string) (r reply) {
	defer func() {
		if p := recover(); p != nil {
			fmt.Fprintf(os.Stderr, "driver: panic in case %s: %v\n%s", id, p, debug.Stack())
			r = reply{Type: "result", ID: id, Error: fmt.Sprintf("driver panic: %v", p)}
		}
	}()
	var req request
	if err := json.Unmarshal(line, &req); err != nil {
		return reply{Type: "result", ID: id, Error: "driver: malformed case request: " + err.Error()}
	}
	if req.Game != "duelmasters" {
		return reply{Type: "result", ID: id, Skip: "shobu.io's engine plays Duel Masters only"}
	}
	return playCase(&req)
}
