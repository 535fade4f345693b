import {
  api,
  Badge,
  Card,
  ErrorBanner,
  Loading,
  PageHeader,
  SelectField,
  useQuery,
  useSearchParams,
  type DataOf,
} from '@platform/ui';
import { ModePanel, useAllTokens, valueIn, type Mode, type Token } from './token-view';

type Contrast = DataOf<'palette.tokenContrast'>;
type Result = Contrast['light'];

const Pass = ({ ok }: { ok: boolean }) => (
  <Badge tone={ok ? 'success' : 'danger'}>{ok ? 'Pass' : 'Fail'}</Badge>
);

/** One mode's ratio and WCAG levels, with the pair drawn as it will look. */
function ModeResult({
  mode,
  result,
  fg,
  bg,
  byId,
}: {
  mode: Mode;
  result: Result;
  fg?: Token;
  bg?: Token;
  byId: ReadonlyMap<string, Token>;
}) {
  const title = mode === 'light' ? 'Light' : 'Dark';
  return (
    <Card title={title}>
      <p className="pl-ratio" aria-label={`${title} contrast ratio`}>
        {result.ratio}:1
      </p>
      <table className="ui-table">
        <caption>WCAG 2 levels in {mode} mode</caption>
        <thead>
          <tr>
            <th scope="col">Level</th>
            <th scope="col">Normal text</th>
            <th scope="col">Large text</th>
          </tr>
        </thead>
        <tbody>
          {(['aa', 'aaa'] as const).map((level) => (
            <tr key={level}>
              <th scope="row">{level.toUpperCase()}</th>
              <td>
                <Pass ok={result[level].normal} />
              </td>
              <td>
                <Pass ok={result[level].large} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {fg && bg && (
        <ModePanel mode={mode}>
          <div
            className="pl-contrast-sample"
            aria-hidden="true"
            style={{ color: valueIn(fg, mode, byId), background: valueIn(bg, mode, byId) }}
          >
            <span className="pl-large">Large text</span> and normal text
          </div>
        </ModePanel>
      )}
    </Card>
  );
}

/**
 * WCAG contrast of two colour tokens in light and dark mode, as the palette API computes it
 * (aliases followed, translucent colours composited over the backdrop).
 */
export function ContrastChecker() {
  const [params, setParams] = useSearchParams();
  const pick = (name: string) => params.get(name) ?? '';
  const set = (name: string) => (value: string) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value) next.set(name, value);
        else next.delete(name);
        return next;
      },
      { replace: true },
    );
  const tokens = useAllTokens();
  const colors = (tokens.data ?? []).filter((t) => t.category === 'color');
  const byId = new Map((tokens.data ?? []).map((t) => [t.id, t]));
  const [foreground, background, backdrop] = [
    pick('foreground'),
    pick('background'),
    pick('backdrop'),
  ];
  const contrast = useQuery({
    queryKey: ['tokens', 'contrast', foreground, background, backdrop],
    queryFn: () =>
      api.palette.tokenContrast({
        query: { foreground, background, ...(backdrop ? { backdrop } : {}) },
      }),
    enabled: Boolean(foreground && background),
  });
  const options = (none: string) => [
    { value: '', label: none },
    ...colors.map((t) => ({ value: t.name, label: t.name })),
  ];
  const fg = colors.find((t) => t.id === contrast.data?.foreground.id);
  const bg = colors.find((t) => t.id === contrast.data?.background.id);
  return (
    <>
      <PageHeader title="Contrast checker">
        The WCAG 2 contrast of a text colour on a background, in both modes: AA needs 4.5 (3 for
        large text), AAA 7 (4.5).
      </PageHeader>
      <ErrorBanner error={tokens.error} />
      <div className="ui-filters">
        <SelectField
          label="Foreground"
          name="foreground"
          value={foreground}
          options={options('Choose a colour token')}
          onChange={set('foreground')}
        />
        <SelectField
          label="Background"
          name="background"
          value={background}
          options={options('Choose a colour token')}
          onChange={set('background')}
        />
        <SelectField
          label="Backdrop"
          name="backdrop"
          hint="Under a translucent background"
          value={backdrop}
          options={options('White in light, black in dark')}
          onChange={set('backdrop')}
        />
      </div>
      <ErrorBanner error={contrast.error} />
      {!(foreground && background) ? (
        <p className="ui-muted">Choose a foreground and a background token.</p>
      ) : contrast.isPending ? (
        <Loading />
      ) : (
        contrast.data && (
          <div className="ui-grid">
            {(['light', 'dark'] as const).map((mode) => (
              <ModeResult
                key={mode}
                mode={mode}
                result={contrast.data[mode]}
                fg={fg}
                bg={bg}
                byId={byId}
              />
            ))}
          </div>
        )
      )}
    </>
  );
}
