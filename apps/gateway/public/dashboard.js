// Fills the services table from the aggregated health endpoint.
(async function () {
  const body = document.getElementById('services');
  const cell = (text, className) => {
    const td = document.createElement('td');
    td.textContent = text;
    if (className) td.className = className;
    return td;
  };
  try {
    const response = await fetch('/api/v1/health');
    const envelope = await response.json();
    if (!envelope.success) throw new Error(envelope.error.message);
    body.replaceChildren(
      ...envelope.data.services.map((service) => {
        const row = document.createElement('tr');
        const name = cell('');
        const link = document.createElement('a');
        link.href = `/${service.name}/`;
        link.textContent = service.name;
        name.append(link);
        row.append(
          name,
          cell(service.status, service.status),
          cell(service.version ?? ''),
          cell(service.via),
        );
        return row;
      }),
    );
  } catch (error) {
    body.replaceChildren(cell(`Could not load health: ${error.message}`, 'unhealthy'));
  }
})();
