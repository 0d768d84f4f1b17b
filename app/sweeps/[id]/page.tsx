import { notFound } from 'next/navigation';
import { SweepView } from '@/components/sweeps/sweep-view';
import { getSweepStore } from '@/lib/store';

export default async function SweepPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  // An id no sweep has is a 404 with a way back, not an empty sweep page.
  if (!(await getSweepStore().getSweep(id))) notFound();
  return <SweepView sweepId={id} />;
}
