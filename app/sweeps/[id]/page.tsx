import { SweepView } from '@/components/sweeps/sweep-view';

export default async function SweepPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <SweepView sweepId={id} />;
}
