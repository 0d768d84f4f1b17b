import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { LessonPage } from '@/components/lessons/lesson-page';
import { lessonBySlug, LESSONS } from '@/lib/lessons';

export function generateStaticParams() {
  return LESSONS.map((lesson) => ({ slug: lesson.slug }));
}

export async function generateMetadata({ params }: { params: Promise<{ slug: string }> }): Promise<Metadata> {
  const lesson = lessonBySlug((await params).slug);
  return { title: lesson ? `${lesson.title} · Lessons · Loop Lab` : 'Lessons · Loop Lab' };
}

/** A lesson; `?scale=` plays it at another time scale than its demo scale (the browser test plays fast). */
export default async function LessonDetailPage({
  params,
  searchParams,
}: {
  params: Promise<{ slug: string }>;
  searchParams: Promise<{ scale?: string }>;
}) {
  const { slug } = await params;
  if (!lessonBySlug(slug)) notFound();
  const scale = Number((await searchParams).scale);
  return <LessonPage slug={slug} {...(Number.isFinite(scale) && scale > 0 ? { timeScale: scale } : {})} />;
}
