// Writes many-scans.jpg: an 8x8 progressive JPEG of 1135 scans, a valid progression (the DC of every component, then
// each AC coefficient of each component alone, first at Al = 5, then refined one bit at a time), which libjpeg decodes
// scan by scan over the whole image. Build: cc many-scans.c -ljpeg -o many-scans && ./many-scans many-scans.jpg
#include <stdio.h>
#include <jpeglib.h>

int main(int argc, char **argv) {
    if (argc != 2) return 2;
    struct jpeg_compress_struct c;
    struct jpeg_error_mgr e;
    c.err = jpeg_std_error(&e);
    jpeg_create_compress(&c);
    FILE *f = fopen(argv[1], "wb");
    if (!f) return 1;
    jpeg_stdio_dest(&c, f);
    c.image_width = 8;
    c.image_height = 8;
    c.input_components = 3;
    c.in_color_space = JCS_RGB;
    jpeg_set_defaults(&c);
    static jpeg_scan_info scans[1200];
    int n = 0;
    scans[n++] = (jpeg_scan_info){3, {0, 1, 2, 0}, 0, 0, 0, 0};
    for (int component = 0; component < 3; component++) {
        for (int k = 1; k < 64; k++) {
            scans[n++] = (jpeg_scan_info){1, {component}, k, k, 0, 5};
            for (int al = 4; al >= 0; al--) scans[n++] = (jpeg_scan_info){1, {component}, k, k, al + 1, al};
        }
    }
    c.scan_info = scans;
    c.num_scans = n;
    jpeg_start_compress(&c, TRUE);
    unsigned char row[24];
    for (int i = 0; i < 24; i++) row[i] = (unsigned char)(i * 10);
    JSAMPROW rows[1] = {row};
    while (c.next_scanline < 8) jpeg_write_scanlines(&c, rows, 1);
    jpeg_finish_compress(&c);
    fclose(f);
    return 0;
}
