import { SweepForm } from '@/components/sweeps/sweep-form';
import { SweepList } from '@/components/sweeps/sweep-list';

export default function SweepsPage() {
  return (
    <div className="mx-auto flex max-w-7xl flex-col gap-3 p-4">
      <div>
        <h1 className="text-sm font-semibold">Sweeps</h1>
        <p className="text-2xs text-muted">
          Which recovery configuration wins under these faults? Simulated runs go on the virtual clock in a
          worker pool, and the same grid gives the same table; a real endpoint's runs go at its pace, within
          the limits you set.
        </p>
      </div>
      <div className="grid grid-cols-1 gap-3 lg:grid-cols-[minmax(0,1fr)_24rem]">
        <SweepForm />
        <SweepList />
      </div>
    </div>
  );
}
