package messages

import (
	"fmt"
	"reflect"
	"strings"
)

// An AX interaction (ax.interaction) runs one of the InteractionTypes,
// each the name of the operation it runs, with a payload of that
// operation's input fields. Its payload schema is derived from the input
// type, so an interaction takes what the operation takes; the ax struct
// tag says where the payload differs:
//
//	ax:"-"           not in the payload (review anchor regions)
//	ax:"nullable"    null is accepted as absent (the reference's nullish)
//	ax:"optional"    optional in the payload, though the operation requires it
//	ax:"enum=NAME"   a narrower enum (Enums[NAME]) than the operation's
//
// Source is never in the payload: the interaction's own source is used.

// PayloadKind is what a payload field holds.
type PayloadKind int

const (
	// PayloadString is any string.
	PayloadString PayloadKind = iota
	// PayloadText is a string with non-whitespace content (a required
	// string: the operation refuses a blank one).
	PayloadText
	// PayloadEnum is one of Enum.
	PayloadEnum
	// PayloadStringArray is an array of strings.
	PayloadStringArray
	// PayloadRecord is a JSON object.
	PayloadRecord
)

// PayloadField is one field of an interaction type's payload.
type PayloadField struct {
	Name     string
	Kind     PayloadKind
	Required bool
	Nullable bool
	Enum     []string
	Doc      string
}

// InteractionPayload returns the payload fields of an interaction type
// (false: not an interaction type).
func InteractionPayload(typ string) ([]PayloadField, bool) {
	f, ok := interactionPayloads[typ]
	return f, ok
}

var interactionPayloads = func() map[string][]PayloadField {
	out := make(map[string][]PayloadField, len(InteractionTypes))
	for _, typ := range InteractionTypes {
		op, ok := Lookup(typ)
		if !ok {
			panic("messages: interaction type " + typ + " is not an operation")
		}
		var fields []PayloadField
		for _, f := range op.Fields() {
			if f.Name == "source" || f.tag.Get("ax") == "-" {
				continue
			}
			fields = append(fields, payloadField(op, f))
		}
		out[typ] = fields
	}
	return out
}()

func payloadField(op *Op, f Field) PayloadField {
	p := PayloadField{Name: f.Name, Required: f.Required, Enum: f.Enum, Doc: f.Doc}
	for _, flag := range strings.Split(f.tag.Get("ax"), ",") {
		switch {
		case flag == "nullable":
			p.Nullable = true
		case flag == "optional":
			p.Required = false
		case strings.HasPrefix(flag, "enum="):
			list, ok := Enums[strings.TrimPrefix(flag, "enum=")]
			if !ok {
				panic(fmt.Sprintf("messages: %s field %s names unknown enum %q", op.Name, f.Name, flag))
			}
			p.Enum = list
		}
	}
	s := f.Schema()
	if len(s.AnyOf) == 2 && s.AnyOf[1].Type == "null" { // Opt[T]: null clears
		s, p.Nullable = s.AnyOf[0], true
	}
	switch {
	case len(p.Enum) > 0:
		p.Kind = PayloadEnum
	case s.Type == "string":
		p.Kind = PayloadString
		if p.Required {
			p.Kind = PayloadText
		}
	case s.Type == "array" || f.Type.Kind() == reflect.Slice:
		p.Kind = PayloadStringArray
	case s.Type == "object":
		p.Kind = PayloadRecord
	default:
		panic(fmt.Sprintf("messages: %s field %s (%s) has no interaction payload kind", op.Name, f.Name, f.Type))
	}
	return p
}
