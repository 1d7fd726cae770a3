package persistence

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/tidwall/buntdb"
)

// SchemaVersion is the store layout this build writes.
const SchemaVersion = 1

const schemaKey = "meta/schema"

// Migration moves a store from version To-1 to To inside one transaction.
type Migration struct {
	To    int
	Name  string
	Apply func(tx *buntdb.Tx) error
}

// migrations lists every forward migration in order. Version 1 is the first
// layout, so there is nothing to migrate yet; a future layout change appends
// here and bumps SchemaVersion.
var migrations []Migration

// migrate brings the store to SchemaVersion. A store written by a newer
// build is refused rather than misread. Migrations run on the records in
// memory; when one ran, the whole store is rewritten (compacted) so the log
// holds the migrated records. Every open then commits the schema record,
// which also closes the log with a commit marker.
func (s *Store) migrate() error {
	ran := false
	err := runMigrations(s.db, migrations, SchemaVersion, func(from, to int, name string) {
		ran = true
		s.log.Info("migrated store", "from", from, "to", to, "migration", name)
	})
	if err != nil {
		return err
	}
	if ran {
		s.recountLive()
		if err := s.compact(); err != nil {
			return fmt.Errorf("write migrated store: %w", err)
		}
	}
	return s.Commit([]Op{Set(schemaKey, strconv.Itoa(SchemaVersion))})
}

func runMigrations(db *buntdb.DB, list []Migration, target int, logf func(from, to int, name string)) error {
	return db.Update(func(tx *buntdb.Tx) error {
		current := 0
		v, err := tx.Get(schemaKey)
		switch {
		case errors.Is(err, buntdb.ErrNotFound):
			n, _ := tx.Len()
			if n == 0 {
				current = target // a new store starts at the current layout
			} else {
				current = 1 // data written before the schema key existed
			}
		case err != nil:
			return err
		default:
			current, err = strconv.Atoi(v)
			if err != nil {
				return fmt.Errorf("store schema version %q is not a number", v)
			}
		}
		if current > target {
			return fmt.Errorf("store schema version %d is newer than this build supports (%d); upgrade pmx-canvas", current, target)
		}
		for _, m := range list {
			if m.To <= current || m.To > target {
				continue
			}
			if m.To != current+1 {
				return fmt.Errorf("migration to version %d is missing", current+1)
			}
			if err := m.Apply(tx); err != nil {
				return fmt.Errorf("migration %d (%s): %w", m.To, m.Name, err)
			}
			logf(current, m.To, m.Name)
			current = m.To
		}
		if current != target {
			return fmt.Errorf("no migration path from schema %d to %d", current, target)
		}
		_, _, err = tx.Set(schemaKey, strconv.Itoa(current), nil)
		return err
	})
}
