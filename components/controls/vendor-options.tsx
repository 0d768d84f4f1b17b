import { VENDORS } from '@/lib/protocol/vendors';
import { VENDOR_LABELS } from '@/lib/client/forms/playground-form';

/** One <option> per vendor, in the protocol's order and under the playground's names. */
export function VendorOptions() {
  return (
    <>
      {VENDORS.map((v) => (
        <option key={v} value={v}>
          {VENDOR_LABELS[v]}
        </option>
      ))}
    </>
  );
}
