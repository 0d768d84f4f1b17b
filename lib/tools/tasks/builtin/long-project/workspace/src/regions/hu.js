'use strict';

/**
 * Hungary (HU).
 *
 * Prices are stored net, in minor units (cents), and shown gross. The rate below is the
 * standard rate; reduced rates (food, books, transport) are not modelled yet — see the
 * README for the plan. Rounding follows the half-up rule used by the invoicing service.
 */
const region = {
  code: 'hu',
  name: 'Hungary',
  currency: 'HUF',
  vatRate: 0.27,
  decimals: 0,
};

/** Gross price in minor units: net plus VAT, rounded half up. */
function gross(netMinor) {
  return Math.round(netMinor * (1 + region.vatRate));
}

/** A display string such as "12.34 HUF". */
function format(minor) {
  const major = minor / 100;
  return major.toFixed(region.decimals) + ' HUF';
}

/** Invoice lines for one order: net, VAT and gross per item. */
function invoiceLines(items) {
  return items.map(function (item) {
    const total = gross(item.netMinor * item.quantity);
    return {
      sku: item.sku,
      quantity: item.quantity,
      net: format(item.netMinor * item.quantity),
      vat: format(total - item.netMinor * item.quantity),
      gross: format(total),
    };
  });
}

module.exports = { region, gross, format, invoiceLines };
