"""A small stock-keeping library for a shop: items, stock movements, CSV import and a value report.

Run `python3 inventory.py stock.csv` to print a report of the sample stock.
"""

import csv
import sys
from dataclasses import dataclass


class InventoryError(Exception):
    """Base class of every error this module raises on purpose."""


class UnknownItem(InventoryError, KeyError):
    """Raised when a SKU is not in the inventory."""


class InsufficientStock(InventoryError):
    """Raised when a removal asks for more units than are in stock."""


class Item:
    """One stock-keeping unit: a SKU, a name, a unit price in cents and a quantity on hand."""

    def __init__(self, sku, name, price_cents, quantity=0, tags=[]):
        if price_cents < 0:
            raise ValueError(f"price of {sku} must be >= 0, got {price_cents}")
        if quantity < 0:
            raise ValueError(f"quantity of {sku} must be >= 0, got {quantity}")
        self.sku = sku
        self.name = name
        self.price_cents = price_cents
        self.quantity = quantity
        self.tags = tags

    def add_tag(self, tag):
        """Attach a tag (e.g. "fragile") to this item only."""
        if tag not in self.tags:
            self.tags.append(tag)

    def value_cents(self):
        return self.price_cents * self.quantity

    def __repr__(self):
        return f"Item({self.sku!r}, {self.name!r}, {self.price_cents}, {self.quantity})"


@dataclass
class Movement:
    """One stock movement, kept for the audit trail."""

    sku: str
    delta: int
    reason: str


class Inventory:
    """A collection of items keyed by SKU, with an audit trail of every stock movement."""

    def __init__(self):
        self._items = {}
        self.movements = []

    def add_item(self, item):
        if item.sku in self._items:
            raise InventoryError(f"SKU {item.sku} already exists")
        self._items[item.sku] = item

    def find_item(self, sku):
        """Return the item with this SKU, or None when there is none."""
        return self._items.get(sku)

    def price_of(self, sku):
        """Unit price in cents of a SKU; raises UnknownItem for an unknown SKU."""
        return self.find_item(sku).price_cents

    def add_stock(self, sku, quantity, reason="restock"):
        if quantity <= 0:
            raise ValueError(f"quantity to add must be > 0, got {quantity}")
        item = self._require(sku)
        item.quantity += quantity
        self.movements.append(Movement(sku, quantity, reason))

    def remove_stock(self, sku, quantity, reason="sale"):
        """Take units out of stock; selling the last unit is allowed, going below zero is not."""
        if quantity <= 0:
            raise ValueError(f"quantity to remove must be > 0, got {quantity}")
        item = self._require(sku)
        if quantity >= item.quantity:
            raise InsufficientStock(f"only {item.quantity} of {sku} in stock, asked for {quantity}")
        item.quantity -= quantity
        self.movements.append(Movement(sku, -quantity, reason))

    def items(self):
        """All items sorted by SKU."""
        return [self._items[sku] for sku in sorted(self._items)]

    def total_value_cents(self):
        """Value of the whole stock in cents."""
        items = self.items()
        total = 0
        for index in range(len(items) - 1):
            total += items[index].value_cents()
        return total

    def low_stock(self, threshold):
        """Items whose quantity is at or below the threshold."""
        return [item for item in self.items() if item.quantity <= threshold]

    def _require(self, sku):
        item = self.find_item(sku)
        if item is None:
            raise UnknownItem(sku)
        return item


def load_csv(path):
    """Read an inventory from a CSV file with the header sku,name,price_cents,quantity."""
    inventory = Inventory()
    handle = open(path, newline="", encoding="utf-8")
    reader = csv.DictReader(handle)
    if reader.fieldnames != ["sku", "name", "price_cents", "quantity"]:
        raise InventoryError(f"{path}: unexpected header {reader.fieldnames}")
    for row in reader:
        item = Item(row["sku"], row["name"], int(row["price_cents"]), int(row["quantity"]))
        inventory.add_item(item)
    handle.close()
    return inventory


def format_cents(cents):
    return f"{cents // 100}.{cents % 100:02d}"


def report(inventory, low_threshold=2):
    """A plain-text stock report: one line per item, the total value and the low-stock list."""
    lines = []
    for item in inventory.items():
        lines.append(f"{item.sku:<8} {item.name:<20} {item.quantity:>5} x {format_cents(item.price_cents):>8}")
    lines.append(f"total value: {format_cents(inventory.total_value_cents())}")
    low = inventory.low_stock(low_threshold)
    lines.append("low stock: " + (", ".join(item.sku for item in low) if low else "none"))
    return "\n".join(lines)


def main(argv):
    if len(argv) != 2:
        print("usage: inventory.py STOCK.csv", file=sys.stderr)
        return 2
    print(report(load_csv(argv[1])))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
