package pictures

import (
	"image"
	"image/color"
)

// decodeCost is the most memory, in bytes, that decoding a picture with this
// header allocates: the pixels at the size the decoder really keeps them
// (16-bit PNGs at 8 bytes a pixel, CMYK JPEGs with their YCbCr and black
// planes and the converted copy, progressive JPEGs with their coefficients),
// read from the header before anything is allocated. It errs on the high
// side where the header does not say.
func decodeCost(data []byte, format string, cfg image.Config) int64 {
	w, h := int64(cfg.Width), int64(cfg.Height)
	switch format {
	case "png":
		return pngCost(data, w, h)
	case "jpeg":
		if f, ok := jpegFrameOf(data); ok {
			return f.cost(w, h)
		}
		return 24 * (w + 32) * (h + 32) // no frame header found: the worst layout Go decodes
	case "gif":
		return 5 * w * h // the first frame as Paletted, and a canvas of the screen's size
	case "webp":
		pw, ph := (w+15)&^15, (h+15)&^15 // VP8 works in 16x16 macroblocks
		switch cfg.ColorModel {
		case color.YCbCrModel:
			return 2 * pw * ph
		case color.NYCbCrAModel:
			return 3 * pw * ph
		}
		return 12 * w * h // lossless: ARGB words, a transform's copy, and the NRGBA image
	}
	return 8 * w * h
}

// pngCost is what Go's PNG decoder allocates for a w x h picture: 8 bytes a
// pixel at a bit depth of 16, else at most 4, twice that when interlaced
// (each Adam7 pass is an image of its own before they are merged), and two
// rows of filter state.
func pngCost(data []byte, w, h int64) int64 {
	bpp := int64(4)
	if len(data) > 24 && data[24] == 16 { // IHDR bit depth
		bpp = 8
	}
	cost := w * h * bpp
	if len(data) > 28 && data[28] == 1 { // IHDR interlace method: Adam7
		cost *= 2
	}
	return cost + 2*(w*bpp+1)
}

// jpegFrame is what a JPEG's frame header (SOFn) says about the decode.
type jpegFrame struct {
	progressive bool
	adobe       bool // an APP14 Adobe segment: maybe RGB or CMYK, converted to a copy
	hv          [][2]int64
}

// cost mirrors image/jpeg's allocations: one plane per component at its
// sampling rounded up to whole MCUs; for 4 components, or 3 stored as RGB,
// the 4-byte-a-pixel image they are converted into; for a progressive JPEG,
// 64 int32 coefficients per 8x8 block of every component.
func (f jpegFrame) cost(w, h int64) int64 {
	hmax, vmax := int64(1), int64(1)
	for _, s := range f.hv {
		hmax, vmax = max(hmax, s[0]), max(vmax, s[1])
	}
	mxx, myy := (w+8*hmax-1)/(8*hmax), (h+8*vmax-1)/(8*vmax)
	var planes int64
	for _, s := range f.hv {
		planes += 8 * s[0] * mxx * 8 * s[1] * myy
	}
	cost := planes
	if len(f.hv) == 4 || (len(f.hv) == 3 && f.adobe) {
		cost += 4 * w * h
	}
	if f.progressive {
		cost += 4 * planes
	}
	return cost
}

// jpegFrameOf walks a JPEG's marker segments up to its first frame header,
// skipping stray bytes the way image/jpeg does. It reports false when there
// is no well-formed frame header before the first scan.
func jpegFrameOf(data []byte) (jpegFrame, bool) {
	var f jpegFrame
	for i := 2; i+4 <= len(data); {
		if data[i] != 0xff {
			i++ // image/jpeg skips garbage between segments, so must this
			continue
		}
		m := data[i+1]
		i += 2
		switch {
		case m == 0xff:
			i-- // a fill byte: the next byte may be the marker
			continue
		case m == 0x00 || m == 0x01 || m == 0xd8 || (m >= 0xd0 && m <= 0xd7):
			continue // no length
		case m == 0xda || m == 0xd9:
			return jpegFrame{}, false // a scan or the end before any frame header
		}
		n := int(data[i])<<8 | int(data[i+1])
		if n < 2 || i+n > len(data) {
			return jpegFrame{}, false
		}
		seg := data[i+2 : i+n]
		i += n
		switch {
		case m == 0xee && len(seg) >= 5 && string(seg[:5]) == "Adobe":
			f.adobe = true
		case m >= 0xc0 && m <= 0xcf && m != 0xc4 && m != 0xc8 && m != 0xcc:
			return f.withSOF(m, seg)
		}
	}
	return jpegFrame{}, false
}

// withSOF reads the components' sampling factors from a SOFn segment.
func (f jpegFrame) withSOF(marker byte, seg []byte) (jpegFrame, bool) {
	if len(seg) < 6 {
		return jpegFrame{}, false
	}
	nc := int(seg[5])
	if nc < 1 || nc > 4 || len(seg) < 6+3*nc {
		return jpegFrame{}, false
	}
	f.progressive = marker == 0xc2 || marker == 0xc6 || marker == 0xca || marker == 0xce
	for c := range nc {
		hv := seg[6+3*c+1]
		f.hv = append(f.hv, [2]int64{max(1, int64(hv>>4)), max(1, int64(hv&0x0f))})
	}
	return f, true
}

// gifShape walks a GIF's blocks without decoding any pixels and counts its
// frames; complete says the walk reached the trailer, so the file is not
// cut short. A GIF's later frames are never decoded, so this is what checks
// that an animated GIF sent as it came is whole.
func gifShape(data []byte) (frames int, complete bool) {
	if len(data) < 13 {
		return 0, false
	}
	i := 13
	if data[10]&0x80 != 0 { // global colour table
		i += 3 << (data[10]&7 + 1)
	}
	for i < len(data) {
		switch data[i] {
		case 0x21: // extension: label, then sub-blocks
			i = skipSubBlocks(data, i+2)
		case 0x2c: // image descriptor, optional local colour table, LZW code size, sub-blocks
			frames++
			if i+10 > len(data) {
				return frames, false
			}
			flags := data[i+9]
			i += 10
			if flags&0x80 != 0 {
				i += 3 << (flags&7 + 1)
			}
			i = skipSubBlocks(data, i+1)
		case 0x3b:
			return frames, true
		default:
			return frames, false
		}
	}
	return frames, false
}

// skipSubBlocks returns the offset after the sub-block chain starting at i,
// or past the end when the chain is cut short.
func skipSubBlocks(data []byte, i int) int {
	for i < len(data) {
		n := int(data[i])
		i++
		if n == 0 {
			return i
		}
		i += n
	}
	return len(data) + 1
}
