import { vendorIds, vendorLabel } from '@/lib/protocol/vendors';

/** One <option> per vendor, in the vendor table's order and under its names. */
export function VendorOptions() {
  return (
    <>
      {vendorIds().map((v) => (
        <option key={v} value={v}>
          {vendorLabel(v)}
        </option>
      ))}
    </>
  );
}
