'use client';

import { Text } from 'recharts';

interface BandTickProps {
  x?: number;
  y?: number;
  /** The axis' width and the ticks shown on it (recharts passes both to a custom tick). */
  width?: number;
  visibleTicksCount?: number;
  payload?: { value: string | number };
  tickFormatter?: (value: never, index: number) => string;
  index?: number;
  /** A line under the label, per tick index (the completion chart's "0 % (0–9)"). */
  captions?: readonly string[];
}

/**
 * A category tick that stays inside its own band: long row labels ("naive (no recovery) ·
 * overloaded-x3") wrap onto two lines and end in an ellipsis instead of running into the
 * neighbouring label; the whole label is the tooltip.
 */
export function BandTick({
  x = 0,
  y = 0,
  width = 0,
  visibleTicksCount = 1,
  payload,
  tickFormatter,
  index = 0,
  captions,
}: BandTickProps) {
  const raw = payload?.value ?? '';
  const label = tickFormatter ? tickFormatter(raw as never, index) : String(raw);
  const band = Math.max(width / Math.max(visibleTicksCount, 1) - 6, 24);
  return (
    <g>
      <title>{label}</title>
      <Text
        x={x}
        y={y}
        width={band}
        maxLines={2}
        textAnchor="middle"
        verticalAnchor="start"
        fontSize={10}
        fill="var(--c-muted)"
      >
        {label}
      </Text>
      {captions?.[index] !== undefined && (
        <Text
          x={x}
          y={y + 26}
          width={band}
          textAnchor="middle"
          verticalAnchor="start"
          fontSize={10}
          fontWeight={600}
          fill="var(--c-fg)"
          data-testid="band-caption"
        >
          {captions[index]}
        </Text>
      )}
    </g>
  );
}
