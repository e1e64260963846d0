// Command ferretdb runs FerretDB 1.24 embedded, with the SQLite backend, behind a small front
// that makes writes atomic.
//
// It exists because the upstream cmd/ferretdb cannot be installed from the Go module proxy, and
// because FerretDB 1.24 on SQLite applies an update as read-modify-write without isolation: two
// concurrent conditional updates of one document both succeed and concurrent $inc lose counts.
// MongoDB guarantees single-document atomicity and every state transition of Ruilplein relies on
// it, so the front forwards each client connection to FerretDB over a Unix socket and lets only
// one write command at a time through per database (each is its own SQLite file, and every
// service has its own database). Reads pass freely.
package main

import (
	"context"
	"encoding/binary"
	"errors"
	"flag"
	"io"
	"log"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"sync"
	"syscall"
	"time"

	"github.com/FerretDB/FerretDB/ferretdb"
)

const (
	opMsg       = 2013
	moreToCome  = 1 << 1
	maxMsgBytes = 48 << 20
)

// writeCommands change documents; they are serialized across all connections.
var writeCommands = map[string]bool{
	"insert": true, "update": true, "delete": true, "findAndModify": true,
}

func main() {
	addr := flag.String("listen", "127.0.0.1:27017", "TCP address to listen on")
	dir := flag.String("data", ".data/ferretdb", "directory for the SQLite databases")
	flag.Parse()

	abs, err := filepath.Abs(*dir)
	if err != nil {
		log.Fatalf("ferretdb: %v", err)
	}
	if err := os.MkdirAll(abs, 0o700); err != nil {
		log.Fatalf("ferretdb: cannot create data directory %s: %v", abs, err)
	}
	sock := filepath.Join(abs, "ferretdb.sock")
	_ = os.Remove(sock)

	f, err := ferretdb.New(&ferretdb.Config{
		Listener:  ferretdb.ListenerConfig{Unix: sock},
		Handler:   "sqlite",
		SQLiteURL: "file:" + abs + "/",
	})
	if err != nil {
		log.Fatalf("ferretdb: %v", err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go f.Run(ctx)

	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatalf("ferretdb: %v", err)
	}
	go func() {
		<-ctx.Done()
		ln.Close()
	}()
	log.Printf("ferretdb listening on %s, data in %s", *addr, abs)

	writes := &dbLocks{byName: map[string]*sync.Mutex{}}
	for {
		client, err := ln.Accept()
		if err != nil {
			if ctx.Err() != nil {
				return
			}
			log.Printf("ferretdb: accept: %v", err)
			continue
		}
		go serve(client, sock, writes)
	}
}

// dbLocks holds one write turn per database: writes to different databases (different SQLite
// files) run side by side, writes to one database one at a time.
type dbLocks struct {
	mu     sync.Mutex
	byName map[string]*sync.Mutex
}

func (l *dbLocks) of(db string) *sync.Mutex {
	l.mu.Lock()
	defer l.mu.Unlock()
	m, ok := l.byName[db]
	if !ok {
		m = &sync.Mutex{}
		l.byName[db] = m
	}
	return m
}

// serve relays one client connection, one request and its replies at a time.
func serve(client net.Conn, sock string, writes *dbLocks) {
	defer client.Close()
	var backend net.Conn
	var err error
	for i := 0; i < 100; i++ { // FerretDB may still be opening its socket right after start
		if backend, err = net.Dial("unix", sock); err == nil {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if err != nil {
		log.Printf("ferretdb: backend: %v", err)
		return
	}
	defer backend.Close()

	for {
		req, err := readMessage(client)
		if err != nil {
			return
		}
		var turn *sync.Mutex
		if writeCommands[commandName(req)] {
			// A write whose database cannot be read waits for the turn of "" (all such writes share it).
			turn = writes.of(databaseName(req))
			turn.Lock()
		}
		err = roundTrip(req, client, backend)
		if turn != nil {
			turn.Unlock()
		}
		if err != nil {
			return
		}
	}
}

func roundTrip(req []byte, client, backend net.Conn) error {
	if _, err := backend.Write(req); err != nil {
		return err
	}
	if flags(req)&moreToCome != 0 { // fire-and-forget request: no reply follows
		return nil
	}
	for {
		reply, err := readMessage(backend)
		if err != nil {
			return err
		}
		if _, err := client.Write(reply); err != nil {
			return err
		}
		if flags(reply)&moreToCome == 0 {
			return nil
		}
	}
}

// readMessage reads one wire protocol message: a little-endian int32 length that includes itself.
func readMessage(r io.Reader) ([]byte, error) {
	var header [4]byte
	if _, err := io.ReadFull(r, header[:]); err != nil {
		return nil, err
	}
	n := int(binary.LittleEndian.Uint32(header[:]))
	if n < 16 || n > maxMsgBytes {
		return nil, errors.New("bad message length")
	}
	msg := make([]byte, n)
	copy(msg, header[:])
	_, err := io.ReadFull(r, msg[4:])
	return msg, err
}

func opCode(msg []byte) uint32 { return binary.LittleEndian.Uint32(msg[12:16]) }

func flags(msg []byte) uint32 {
	if opCode(msg) != opMsg || len(msg) < 20 {
		return 0
	}
	return binary.LittleEndian.Uint32(msg[16:20])
}

// commandName is the first key of an OP_MSG body section (kind 0): the command being run.
func commandName(msg []byte) string {
	if opCode(msg) != opMsg || len(msg) < 27 || msg[20] != 0 {
		return ""
	}
	// msg[21:25] is the document length, msg[25] the first element's type, then its name.
	for i := 26; i < len(msg); i++ {
		if msg[i] == 0 {
			return string(msg[26:i])
		}
	}
	return ""
}

// databaseName is the "$db" field of an OP_MSG body section (kind 0), or "" when it has none.
func databaseName(msg []byte) string {
	if opCode(msg) != opMsg || len(msg) < 26 || msg[20] != 0 {
		return ""
	}
	doc := msg[21:]
	n := int(binary.LittleEndian.Uint32(doc[:4]))
	if n < 5 || n > len(doc) {
		return ""
	}
	doc = doc[:n]
	for i := 4; i < len(doc)-1; {
		kind := doc[i]
		i++
		start := i
		for i < len(doc) && doc[i] != 0 {
			i++
		}
		if i >= len(doc) {
			return ""
		}
		name := string(doc[start:i])
		i++
		if name == "$db" && kind == 0x02 {
			if i+4 > len(doc) {
				return ""
			}
			l := int(binary.LittleEndian.Uint32(doc[i : i+4]))
			if l < 1 || i+4+l > len(doc) {
				return ""
			}
			return string(doc[i+4 : i+4+l-1])
		}
		size := bsonValueSize(kind, doc[i:])
		if size < 0 {
			return ""
		}
		i += size
	}
	return ""
}

// bsonValueSize is the length of one BSON value of the given type at the start of b, or -1.
func bsonValueSize(kind byte, b []byte) int {
	int32At := func() int {
		if len(b) < 4 {
			return -1
		}
		return int(binary.LittleEndian.Uint32(b[:4]))
	}
	cstring := func(from int) int {
		for j := from; j < len(b); j++ {
			if b[j] == 0 {
				return j + 1 - from
			}
		}
		return -1
	}
	switch kind {
	case 0x01, 0x09, 0x11, 0x12: // double, datetime, timestamp, int64
		return 8
	case 0x02, 0x0D, 0x0E: // string, JavaScript code, symbol
		if l := int32At(); l >= 1 {
			return 4 + l
		}
		return -1
	case 0x03, 0x04: // document, array: the length includes itself
		return int32At()
	case 0x05: // binary: length, subtype, bytes
		if l := int32At(); l >= 0 {
			return 5 + l
		}
		return -1
	case 0x06, 0x0A, 0x7F, 0xFF: // undefined, null, max key, min key
		return 0
	case 0x07: // ObjectId
		return 12
	case 0x08: // boolean
		return 1
	case 0x0B: // regular expression: pattern and options, two C strings
		a := cstring(0)
		if a < 0 {
			return -1
		}
		c := cstring(a)
		if c < 0 {
			return -1
		}
		return a + c
	case 0x0C: // DBPointer: string and ObjectId
		if l := int32At(); l >= 1 {
			return 4 + l + 12
		}
		return -1
	case 0x0F: // code with scope: total length includes itself
		return int32At()
	case 0x10: // int32
		return 4
	case 0x13: // decimal128
		return 16
	}
	return -1
}
