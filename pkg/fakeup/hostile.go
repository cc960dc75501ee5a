package fakeup

import (
	"bytes"
	"compress/flate"
	"compress/lzw"
	"encoding/binary"
	"hash/crc32"
	"image/jpeg"
	"math/rand/v2"
)

// The hostile pictures below are what an upload site can be handed: each is
// small on the wire and costly, or broken, once decoded. They are built
// byte by byte, never by encoding the huge image they describe.

// GIFBomb is a w x h GIF of frames full-screen frames of one colour: a few
// kilobytes a frame, w*h bytes a frame once decoded, all of them kept by a
// decoder that keeps every frame.
func GIFBomb(w, h, frames int) []byte {
	var lz bytes.Buffer
	enc := lzw.NewWriter(&lz, lzw.LSB, 8)
	row := make([]byte, w)
	for range h {
		_, _ = enc.Write(row)
	}
	_ = enc.Close()
	var b bytes.Buffer
	b.WriteString("GIF89a")
	_ = binary.Write(&b, binary.LittleEndian, [2]uint16{uint16(w), uint16(h)})
	b.Write([]byte{0xf7, 0, 0}) // a global colour table of 256 entries
	b.Write(make([]byte, 3*256))
	for range frames {
		b.WriteByte(0x2c)
		_ = binary.Write(&b, binary.LittleEndian, [4]uint16{0, 0, uint16(w), uint16(h)})
		b.Write([]byte{0, 8}) // no local table; LZW minimum code size 8
		for data := lz.Bytes(); len(data) > 0; {
			n := min(255, len(data))
			b.WriteByte(byte(n))
			b.Write(data[:n])
			data = data[n:]
		}
		b.WriteByte(0)
	}
	b.WriteByte(0x3b)
	return b.Bytes()
}

// PNGHeader is a PNG whose header claims w x h 8-bit RGBA pixels and whose
// data is one empty row: a decoder that trusts the header allocates
// 4*w*h bytes before it finds out.
func PNGHeader(w, h int) []byte {
	return pngFile(w, h, 8, zlibZeros(1))
}

// PNG16 is a whole, valid w x h PNG of 16-bit RGBA (8 bytes a pixel once
// decoded), all transparent black, which deflates to about a thousandth of
// that.
func PNG16(w, h int) []byte {
	return pngFile(w, h, 16, zlibZeros(h*(1+8*w)))
}

// TruncatedJPEG is a w x h JPEG cut off halfway through its scan.
func TruncatedJPEG(w, h int) []byte {
	var b bytes.Buffer
	img := render(rand.New(rand.NewPCG(1, keyHash("truncated"))), w, h, 1)
	_ = jpeg.Encode(&b, img, &jpeg.Options{Quality: jpegQuality})
	return b.Bytes()[:b.Len()/2]
}

// pngFile assembles a PNG of RGBA (colour type 6) at depth with idat as its
// one IDAT chunk.
func pngFile(w, h int, depth byte, idat []byte) []byte {
	var b bytes.Buffer
	b.WriteString("\x89PNG\r\n\x1a\n")
	ihdr := binary.BigEndian.AppendUint32(nil, uint32(w))
	ihdr = binary.BigEndian.AppendUint32(ihdr, uint32(h))
	ihdr = append(ihdr, depth, 6, 0, 0, 0)
	pngChunk(&b, "IHDR", ihdr)
	pngChunk(&b, "IDAT", idat)
	pngChunk(&b, "IEND", nil)
	return b.Bytes()
}

func pngChunk(b *bytes.Buffer, typ string, data []byte) {
	_ = binary.Write(b, binary.BigEndian, uint32(len(data)))
	crc := crc32.NewIEEE()
	_, _ = crc.Write([]byte(typ))
	_, _ = crc.Write(data)
	b.WriteString(typ)
	b.Write(data)
	_ = binary.Write(b, binary.BigEndian, crc.Sum32())
}

// zlibZeros is a zlib stream of n zero bytes. Deflating hundreds of
// megabytes takes a minute under the race detector, so it deflates one
// megabyte and repeats that block: each block refers back only to zeros,
// and a sync flush ends each on a byte boundary. The Adler-32 of n zeros is
// 1 and n mod 65521.
func zlibZeros(n int) []byte {
	const seg = 1 << 20
	var b bytes.Buffer
	b.Write([]byte{0x78, 0xda}) // deflate, 32 KiB window, best compression
	fw, _ := flate.NewWriter(&b, flate.BestCompression)
	zeros := make([]byte, seg)
	first := min(n, seg)
	_, _ = fw.Write(zeros[:first])
	_ = fw.Flush()
	rest := n - first
	if rest >= seg {
		start := b.Len()
		_, _ = fw.Write(zeros)
		_ = fw.Flush()
		block := bytes.Clone(b.Bytes()[start:])
		for rest -= seg; rest >= seg; rest -= seg {
			b.Write(block)
		}
	}
	_, _ = fw.Write(zeros[:rest])
	_ = fw.Close()
	_ = binary.Write(&b, binary.BigEndian, uint32(n%65521)<<16|1)
	return b.Bytes()
}
