// Command ferretdb runs FerretDB 1.24 embedded, with the SQLite backend, behind a small front
// that makes writes atomic.
//
// It exists because the upstream cmd/ferretdb cannot be installed from the Go module proxy, and
// because FerretDB 1.24 on SQLite applies an update as read-modify-write without isolation: two
// concurrent conditional updates of one document both succeed and concurrent $inc lose counts.
// MongoDB guarantees single-document atomicity and every state transition of Ruilplein relies on
// it, so the front forwards each client connection to FerretDB over a Unix socket and lets only
// one write command at a time through. Reads pass freely.
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

	var writes sync.Mutex
	for {
		client, err := ln.Accept()
		if err != nil {
			if ctx.Err() != nil {
				return
			}
			log.Printf("ferretdb: accept: %v", err)
			continue
		}
		go serve(client, sock, &writes)
	}
}

// serve relays one client connection, one request and its replies at a time.
func serve(client net.Conn, sock string, writes *sync.Mutex) {
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
		write := writeCommands[commandName(req)]
		if write {
			writes.Lock()
		}
		err = roundTrip(req, client, backend)
		if write {
			writes.Unlock()
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
