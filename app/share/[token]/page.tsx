import type { Metadata } from 'next';
import { SharedRunPage } from '@/components/share/shared-run-page';

export const metadata: Metadata = { title: 'A shared run · Loop Lab' };

/** A run shared by link (POST /api/runs/{id}/share): read only, open without joining a room. */
export default async function SharePage({ params }: { params: Promise<{ token: string }> }) {
  return <SharedRunPage token={(await params).token} />;
}
