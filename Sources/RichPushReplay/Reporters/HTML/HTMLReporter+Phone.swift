import RichPushCore

extension HTMLReporter {
    /// One card's phone: its pictures' `<style>`, each view drawn, and the model's notes.
    struct PhoneParts {
        var style: String
        var views: [NotificationView: String]
        var order: [NotificationView]
        var notes: [String]
        /// How it reached the person (``DeliveryBlock``), drawn above the views.
        var delivery: String
    }

    /// Draws the presentation's views; `known` are files the card embedded already (its attachment), not counted
    /// against `budget` again. With `delivery`, the views the person does not get are dimmed and labelled (a
    /// screenshot draws each view as the phone would, without).
    func phoneParts(
        _ result: DeliveryResult, presentation: NotificationPresentation, card: Int,
        known: [String: PhoneMedia.Embedded], budget: inout Int, delivery: Bool = true
    ) -> PhoneParts {
        var media = PhoneMedia(reporter: self, card: card, known: known)
        let lookup = media.resolve(presentation, budget: &budget)
        var views: [NotificationView: String] = [:]
        for view in presentation.views {
            let notShown =
                delivery ? presentation.delivery.flatMap { DeliveryBlock.notShown(view.view, delivery: $0) } : nil
            views[view.view] =
                PhoneView(
                    view: view, approximation: presentation.approximation, pictures: lookup,
                    level: presentation.delivery?.level, notShown: notShown
                ).html
        }
        return PhoneParts(
            style: media.style, views: views, order: presentation.views.map(\.view), notes: presentation.notes,
            delivery: delivery ? DeliveryBlock.html(presentation) : "")
    }

    /// The card's phone section: the three views side by side and the notes.
    func phoneSection(_ parts: PhoneParts) -> String {
        var html = parts.style + parts.delivery
        html += "<div class=\"phones\" role=\"group\" aria-label=\"What the phone shows\">\n"
        for view in parts.order { html += parts.views[view] ?? "" }
        html += "</div>\n"
        if !parts.notes.isEmpty {
            html += "<ul class=\"pv-notes\">"
            for note in parts.notes { html += "<li><bdi>\(Self.escape(note))</bdi></li>" }
            html += "</ul>\n"
        }
        return html
    }
}
