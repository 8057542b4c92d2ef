import SwiftUI

struct OrdersView: View {
    var body: some View {
        NavigationStack {
            List {
                Label("Order #1042 shipped", systemImage: "shippingbox")
                Label("Order #1041 delivered", systemImage: "checkmark.circle")
            }
            .navigationTitle("Orders")
        }
    }
}
