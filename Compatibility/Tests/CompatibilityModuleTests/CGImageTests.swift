import Foundation
import Testing

@testable import UIKit

/// UIImage's CGImage and back, as resizing and cropping code writes it, and CGSize as debugPrint shows it.
@Suite("UIKit: UIImage.cgImage, UIImage(cgImage:scale:orientation:), CGImage.cropping(to:), CGSize.debugDescription")
struct CGImageTests {
    /// A 3x2 opaque image whose pixel (x, y) has red x*10+y and green 100.
    func sample() -> UIImage {
        var buffer = PixelBuffer(width: 3, height: 2, opaque: true)
        for y in 0..<2 {
            for x in 0..<3 {
                let index = (y * 3 + x) * 4
                buffer.pixels[index] = UInt8(x * 10 + y)
                buffer.pixels[index + 1] = 100
            }
        }
        return UIImage(pixels: buffer, scale: 1)
    }

    func red(_ image: UIImage?, _ x: Int, _ y: Int) -> UInt8? {
        image?.pixels?.pixel(x: x, y: y).red
    }

    @Test("cgImage has the pixels; UIImage(cgImage:scale:orientation:) keeps them at the scale given")
    func roundTrip() throws {
        let cgImage = try #require(sample().cgImage)
        #expect(cgImage.width == 3 && cgImage.height == 2 && cgImage.bytesPerRow == 12)
        let image = UIImage(cgImage: cgImage, scale: 2, orientation: .up)
        #expect(image.size == CGSize(width: 1.5, height: 1))
        #expect(image.pixels == sample().pixels)
        #expect(UIImage().cgImage == nil)
    }

    @Test("an orientation turns the pixels upright: .right is a quarter turn clockwise, its size swapped")
    func orientation() throws {
        let cgImage = try #require(sample().cgImage)
        let right = UIImage(cgImage: cgImage, scale: 1, orientation: .right)
        #expect(right.size == CGSize(width: 2, height: 3))
        // Turned clockwise, the bottom-left pixel (0, 1) comes to the top left, the top-left one to the top right.
        #expect(red(right, 0, 0) == 1 && red(right, 1, 0) == 0 && red(right, 1, 2) == 20)
        let down = UIImage(cgImage: cgImage, scale: 1, orientation: .down)
        #expect(red(down, 0, 0) == 21 && down.imageOrientation == .up)
    }

    @Test("cropping(to:) takes the pixels inside, nil outside")
    func cropping() throws {
        let cgImage = try #require(sample().cgImage)
        let cropped = try #require(cgImage.cropping(to: CGRect(x: 1, y: 1, width: 2, height: 1)))
        #expect(cropped.width == 2 && cropped.height == 1)
        #expect(red(UIImage(cgImage: cropped), 0, 0) == 11 && red(UIImage(cgImage: cropped), 1, 0) == 21)
        #expect(cgImage.cropping(to: CGRect(x: 10, y: 10, width: 1, height: 1)) == nil)
    }

    @Test("CGSize's debugDescription is Core Graphics' \"(width, height)\"")
    func sizeDescription() {
        #expect(CGSize(width: 100, height: 50).debugDescription == "(100.0, 50.0)")
        #expect(String(reflecting: CGSize(width: 1.5, height: 2)) == "(1.5, 2.0)")
    }
}
