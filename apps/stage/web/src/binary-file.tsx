/** Images a browser shows, by extension: a binary file of these types is previewed. */
const IMAGE_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
  ico: 'image/x-icon',
  bmp: 'image/bmp',
};

/** A session file of bytes (not UTF-8 text): an image's preview, else its size; not editable here. */
export function BinaryFile({
  path,
  size,
  content,
}: {
  path: string;
  size: number;
  /** Its bytes in base64, as the files listing gives them. */
  content?: string;
}) {
  const type = IMAGE_TYPES[path.slice(path.lastIndexOf('.') + 1).toLowerCase()];
  return (
    <div className="stage-binary">
      {type && content !== undefined && (
        <img src={`data:${type};base64,${content}`} alt={`Preview of ${path}`} />
      )}
      <p className="ui-muted">
        Binary file, {size.toLocaleString('en')} bytes
        {type ? '' : ': it cannot be shown or edited here'}
      </p>
    </div>
  );
}
