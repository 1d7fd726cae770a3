package persistence

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/pmxcanvas/pmx-canvas/domain/ax"
)

// AX key layout (one key per record, like the layout):
//
//	canvas/<cid>/ax/focus             the focus
//	canvas/<cid>/ax/policy            the tool policy
//	canvas/<cid>/ax/host              the latest host capability report
//	canvas/<cid>/ax/<kind>/<id>       a canvas-bound record with its ordinal
//	                                  (kind: work, review, appr, elic, mode)
//	canvas/<cid>/ax/<kind>/<seq>      a timeline row, seq zero-padded so keys
//	                                  sort in timeline order (evt, evd, steer)
//	canvas/<cid>/ax/seq               the timeline sequence counters
//
// A record that does not decode is skipped at load (the reference loads a
// corrupt AX blob as empty); the rest of the canvas still loads.

// Kinds of AX records.
const (
	AxWork     = "work"
	AxReview   = "review"
	AxApproval = "appr"
	AxElicit   = "elic"
	AxMode     = "mode"
	AxEvent    = "evt"
	AxEvidence = "evd"
	AxSteering = "steer"
)

func axPrefix(cid string) string { return canvasPrefix(cid) + "ax/" }

// AxFocusKey, AxPolicyKey, AxHostKey and AxSeqKey are the singleton keys.
func AxFocusKey(cid string) string  { return axPrefix(cid) + "focus" }
func AxPolicyKey(cid string) string { return axPrefix(cid) + "policy" }
func AxHostKey(cid string) string   { return axPrefix(cid) + "host" }
func AxSeqKey(cid string) string    { return axPrefix(cid) + "seq" }

// AxRecordKey is the key of a canvas-bound record.
func AxRecordKey(cid, kind, id string) string { return axPrefix(cid) + kind + "/" + id }

// AxRowKey is the key of a timeline row.
func AxRowKey(cid, kind string, seq uint64) string {
	return fmt.Sprintf("%s%s/%020d", axPrefix(cid), kind, seq)
}

// AxSeq are the timeline sequence counters: the last number each table used.
// Numbers are never reused, even after retention drops a row.
type AxSeq struct {
	Events   uint64 `json:"evt"`
	Evidence uint64 `json:"evd"`
	Steering uint64 `json:"steer"`
}

// axRecord wraps a canvas-bound record with its ordinal (list order).
type axRecord[T any] struct {
	Ord uint64 `json:"ord"`
	Rec T      `json:"rec"`
}

// AxPut writes a canvas-bound record at ordinal ord.
func AxPut(cid, kind, id string, ord uint64, rec any) Op {
	return Set(AxRecordKey(cid, kind, id), encode(axRecord[any]{Ord: ord, Rec: rec}))
}

// AxDelete deletes a canvas-bound record.
func AxDelete(cid, kind, id string) Op { return Delete(AxRecordKey(cid, kind, id)) }

// AxPutRow writes a timeline row.
func AxPutRow(cid, kind string, seq uint64, row any) Op {
	return Set(AxRowKey(cid, kind, seq), encode(row))
}

// AxDeleteRow deletes a timeline row.
func AxDeleteRow(cid, kind string, seq uint64) Op { return Delete(AxRowKey(cid, kind, seq)) }

// AxSet writes a singleton (focus, policy, host, seq).
func AxSet(key string, v any) Op { return Set(key, encode(v)) }

// AxLoaded is a canvas's stored AX state.
type AxLoaded struct {
	Board ax.Board
	Gates ax.GateSet
	Host  *ax.HostCapability
	// Ords are the ordinals of the canvas-bound records by id; NextOrd is
	// the next one to use.
	Ords    map[string]uint64
	NextOrd uint64
	// Timeline rows, oldest first.
	Events   []*ax.Event
	Evidence []*ax.Evidence
	Steering []*ax.Steering
	Seq      AxSeq
	// Skipped counts records that did not decode.
	Skipped int
}

type ordered[T any] struct {
	ord uint64
	rec T
}

func sortByOrd[T any](in []ordered[T]) []T {
	sort.SliceStable(in, func(i, j int) bool { return in[i].ord < in[j].ord })
	out := make([]T, len(in))
	for i, o := range in {
		out[i] = o.rec
	}
	return out
}

func decodeRecord[T any](value string, list *[]ordered[T], ords map[string]uint64, id func(T) string) bool {
	var r axRecord[T]
	if json.Unmarshal([]byte(value), &r) != nil {
		return false
	}
	*list = append(*list, ordered[T]{r.Ord, r.Rec})
	ords[id(r.Rec)] = r.Ord
	return true
}

func decodeRow[T any](value string, list *[]T) bool {
	var r T
	if json.Unmarshal([]byte(value), &r) != nil {
		return false
	}
	*list = append(*list, r)
	return true
}

// LoadAX reads a canvas's AX state. Records come back in list order and
// timeline rows oldest first; nothing is normalised against the layout here.
func (s *Store) LoadAX(cid string) (*AxLoaded, error) {
	out := &AxLoaded{Board: ax.EmptyBoard(), Gates: ax.EmptyGates(), Ords: map[string]uint64{}}
	var (
		work    []ordered[*ax.WorkItem]
		reviews []ordered[*ax.ReviewAnnotation]
		apprs   []ordered[*ax.ApprovalGate]
		elics   []ordered[*ax.Elicitation]
		modes   []ordered[*ax.ModeRequest]
	)
	prefix := axPrefix(cid)
	err := s.Scan(prefix, func(key, value string) bool {
		kind, _, _ := strings.Cut(key[len(prefix):], "/")
		ok := true
		switch kind {
		case "focus":
			ok = json.Unmarshal([]byte(value), &out.Board.Focus) == nil
		case "policy":
			ok = json.Unmarshal([]byte(value), &out.Board.Policy) == nil
		case "host":
			var h ax.HostCapability
			if ok = json.Unmarshal([]byte(value), &h) == nil; ok {
				out.Host = &h
			}
		case "seq":
			ok = json.Unmarshal([]byte(value), &out.Seq) == nil
		case AxWork:
			ok = decodeRecord(value, &work, out.Ords, func(r *ax.WorkItem) string { return r.ID })
		case AxReview:
			ok = decodeRecord(value, &reviews, out.Ords, func(r *ax.ReviewAnnotation) string { return r.ID })
		case AxApproval:
			ok = decodeRecord(value, &apprs, out.Ords, func(r *ax.ApprovalGate) string { return r.ID })
		case AxElicit:
			ok = decodeRecord(value, &elics, out.Ords, func(r *ax.Elicitation) string { return r.ID })
		case AxMode:
			ok = decodeRecord(value, &modes, out.Ords, func(r *ax.ModeRequest) string { return r.ID })
		case AxEvent:
			ok = decodeRow(value, &out.Events)
		case AxEvidence:
			ok = decodeRow(value, &out.Evidence)
		case AxSteering:
			ok = decodeRow(value, &out.Steering)
		}
		if !ok {
			out.Skipped++
		}
		return true
	})
	if err != nil {
		return nil, err
	}
	out.Board.WorkItems = sortByOrd(work)
	out.Board.Reviews = sortByOrd(reviews)
	out.Gates.Approvals = sortByOrd(apprs)
	out.Gates.Elicitations = sortByOrd(elics)
	out.Gates.Modes = sortByOrd(modes)
	for _, o := range out.Ords {
		if o >= out.NextOrd {
			out.NextOrd = o + 1
		}
	}
	// Timeline numbers come from the rows on disk as well as the counter
	// record, so a number is never used twice.
	for _, e := range out.Events {
		out.Seq.Events = max(out.Seq.Events, e.Seq)
	}
	for _, e := range out.Evidence {
		out.Seq.Evidence = max(out.Seq.Evidence, e.Seq)
	}
	for _, st := range out.Steering {
		out.Seq.Steering = max(out.Seq.Steering, st.Seq)
	}
	if out.Board.Focus.NodeIDs == nil {
		out.Board.Focus.NodeIDs = []string{}
	}
	return out, nil
}
