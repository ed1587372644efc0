package cmd

import (
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"jobtop/jobs"
)

// TestLsRowReadsJobInfosFields: every field of the table's row is the
// field of jobs.Info of the same JSON name and type, and info() carries
// each one over; a renamed field fails here, not as an empty column.
func TestLsRowReadsJobInfosFields(t *testing.T) {
	info := reflect.TypeFor[jobs.Info]()
	byName := map[string]reflect.StructField{}
	for _, f := range reflect.VisibleFields(info) {
		byName[strings.Split(f.Tag.Get("json"), ",")[0]] = f
	}
	var row lsRow
	rv := reflect.ValueOf(&row).Elem()
	for i, f := range reflect.VisibleFields(rv.Type()) {
		name := strings.Split(f.Tag.Get("json"), ",")[0]
		want, ok := byName[name]
		require.True(t, ok, "jobs.Info has no field %q", name)
		assert.Equal(t, want.Type, f.Type, name)
		assert.Equal(t, want.Name, f.Name, name)
		// A value of its own in each field, to see info() carry it.
		field := rv.Field(i)
		switch field.Kind() {
		case reflect.String:
			field.SetString("v-" + name)
		case reflect.Int:
			field.SetInt(int64(i + 1))
		case reflect.Pointer:
			field.Set(reflect.New(field.Type().Elem()))
		}
	}
	got := reflect.ValueOf(row.info())
	for _, f := range reflect.VisibleFields(rv.Type()) {
		assert.Equal(t, rv.FieldByName(f.Name).Interface(), got.FieldByName(f.Name).Interface(), f.Name)
	}
}
