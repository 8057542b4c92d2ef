#!/usr/bin/env python3
"""Generates the fixture images served by the embedded fixture CDN (payloads/images/).

Run once from the repository root; the outputs are committed:

    python3 -m venv /tmp/rp-venv && /tmp/rp-venv/bin/pip install pillow
    /tmp/rp-venv/bin/python scripts/make-fixture-images.py            # writes payloads/images/
    /tmp/rp-venv/bin/python scripts/make-fixture-images.py OUT_DIR    # writes elsewhere

Everything is drawn from fixed shapes (no randomness, no timestamps), so a re-run with the same
Pillow version gives the same bytes. Images are small (tens of KB) on purpose.

Files:
    cat.png                 640x480 PNG (RGB), the "happy path" image
    photo.jpg               320x240 baseline JPEG (SOF0)
    photo-progressive.jpg   320x240 progressive JPEG (SOF2)
    spinner.gif             64x64 animated GIF, 8 frames, loops
    sample.webp             64x64 WebP (recognised, unsupported by iOS notifications)
    sample.bmp              32x32 BMP (recognised, unsupported)
    sample.tiff             32x32 TIFF (recognised, unsupported)
    sample.heic             a minimal ISO-BMFF 'ftyp heic' header (recognised, unsupported; Pillow cannot write HEIC)
    drawing.svg             a tiny SVG document (recognised, unsupported)
    not-an-image.txt        plain text
    page.html               an HTML page (what a captive portal or an error page looks like)
    bomb.png                a decompression bomb: 274 bytes whose header claims 100000x100000 pixels
                            (10 gigapixels); written with zlib alone, no Pillow needed
    interlaced.png          16x16 RGBA PNG, Adam7-interlaced (Pillow does not write interlaced PNG; zlib alone):
                            pixel (x, y) is (16x, 16y, 200, 255 - 8x)
"""

import math
import os
import struct
import sys
import zlib

from PIL import Image, ImageDraw


def cat(path):
    img = Image.new("RGB", (640, 480), (250, 236, 210))
    d = ImageDraw.Draw(img)
    # floor
    d.rectangle([0, 380, 640, 480], fill=(200, 170, 130))
    # body, head, ears
    d.ellipse([200, 220, 440, 400], fill=(240, 150, 60))
    d.ellipse([250, 110, 390, 250], fill=(240, 150, 60))
    d.polygon([(260, 150), (270, 80), (310, 125)], fill=(240, 150, 60))
    d.polygon([(380, 150), (370, 80), (330, 125)], fill=(240, 150, 60))
    # eyes, nose, whiskers
    d.ellipse([285, 160, 305, 185], fill=(40, 90, 40))
    d.ellipse([335, 160, 355, 185], fill=(40, 90, 40))
    d.polygon([(312, 200), (328, 200), (320, 210)], fill=(200, 80, 90))
    for dy in (-6, 0, 6):
        d.line([(250, 205 + dy), (305, 208)], fill=(60, 40, 20), width=2)
        d.line([(335, 208), (390, 205 + dy)], fill=(60, 40, 20), width=2)
    # tail
    d.arc([400, 250, 520, 390], start=180, end=330, fill=(240, 150, 60), width=18)
    img.save(path, format="PNG", optimize=True)


def photo():
    img = Image.new("RGB", (320, 240))
    px = img.load()
    for y in range(240):
        for x in range(320):
            px[x, y] = (
                int(128 + 127 * math.sin(x / 23.0)),
                int(128 + 127 * math.sin(y / 17.0)),
                int(128 + 127 * math.sin((x + y) / 31.0)),
            )
    d = ImageDraw.Draw(img)
    d.rectangle([40, 40, 140, 120], outline=(255, 255, 255), width=4)
    d.ellipse([180, 90, 290, 200], fill=(20, 20, 60))
    return img


def spinner(path):
    frames = []
    for i in range(8):
        f = Image.new("P", (64, 64), 0)
        f.putpalette([255, 255, 255, 30, 30, 30, 200, 200, 200] + [0, 0, 0] * 253)
        d = ImageDraw.Draw(f)
        for k in range(8):
            angle = 2 * math.pi * k / 8
            x, y = 32 + 22 * math.cos(angle), 32 + 22 * math.sin(angle)
            d.ellipse([x - 5, y - 5, x + 5, y + 5], fill=1 if k == i else 2)
        frames.append(f)
    frames[0].save(path, format="GIF", save_all=True, append_images=frames[1:], duration=100, loop=0, optimize=False)


def small(size, color):
    img = Image.new("RGB", size, color)
    ImageDraw.Draw(img).line([(0, 0), (size[0] - 1, size[1] - 1)], fill=(0, 0, 0), width=2)
    return img


def bomb(path):
    """A valid-looking PNG (signature, IHDR, IDAT, IEND, every CRC right) that claims 100000x100000 8-bit grey
    pixels. The IDAT holds two rows of zeros; a decoder that trusts the header allocates 10 GB before noticing."""

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    width = height = 100_000
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    idat = zlib.compress(b"\0" * ((width + 1) * 2), 9)
    with open(path, "wb") as fh:
        fh.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", idat) + chunk(b"IEND", b""))


def png_chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def interlaced(path):
    size = 16
    pixel = lambda x, y: bytes((16 * x, 16 * y, 200, 255 - 8 * x))  # noqa: E731
    # Adam7: (x start, y start, x step, y step) of the seven passes; every row starts with filter type 0.
    passes = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
    raw = b""
    for x0, y0, dx, dy in passes:
        for y in range(y0, size, dy):
            raw += b"\0" + b"".join(pixel(x, y) for x in range(x0, size, dx))
    ihdr = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 1)
    with open(path, "wb") as fh:
        fh.write(b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", ihdr) + png_chunk(b"IDAT", zlib.compress(raw, 9))
                 + png_chunk(b"IEND", b""))


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "payloads", "images")
    os.makedirs(out, exist_ok=True)
    p = lambda name: os.path.join(out, name)  # noqa: E731

    cat(p("cat.png"))
    img = photo()
    img.save(p("photo.jpg"), format="JPEG", quality=80, progressive=False, optimize=False)
    img.save(p("photo-progressive.jpg"), format="JPEG", quality=80, progressive=True, optimize=False)
    spinner(p("spinner.gif"))
    small((64, 64), (30, 140, 220)).save(p("sample.webp"), format="WEBP", quality=80, method=4)
    small((32, 32), (220, 60, 60)).save(p("sample.bmp"), format="BMP")
    small((32, 32), (60, 200, 60)).save(p("sample.tiff"), format="TIFF")

    # Minimal ISO-BMFF: an 'ftyp' box (major brand heic, compatible mif1 heic) and an empty 'meta' box.
    ftyp = b"ftyp" + b"heic" + (0).to_bytes(4, "big") + b"mif1heic"
    meta = b"meta" + (0).to_bytes(4, "big")
    with open(p("sample.heic"), "wb") as fh:
        fh.write((len(ftyp) + 4).to_bytes(4, "big") + ftyp + (len(meta) + 4).to_bytes(4, "big") + meta)

    with open(p("drawing.svg"), "w", encoding="utf-8") as fh:
        fh.write(
            '<?xml version="1.0" encoding="UTF-8"?>\n'
            '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64">\n'
            '  <circle cx="32" cy="32" r="28" fill="#f09a3c"/>\n'
            "</svg>\n"
        )
    bomb(p("bomb.png"))
    interlaced(p("interlaced.png"))
    with open(p("not-an-image.txt"), "w", encoding="utf-8") as fh:
        fh.write("This is not an image. The fixture CDN serves it to test the notAnImage fallback.\n")
    with open(p("page.html"), "w", encoding="utf-8") as fh:
        fh.write(
            "<!DOCTYPE html>\n<html><head><title>Sign in to Wi-Fi</title></head>\n"
            "<body><p>Please sign in to continue.</p></body></html>\n"
        )


if __name__ == "__main__":
    main()
