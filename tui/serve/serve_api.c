/*
 * serve_api: JSON documents of the topology and the layout.  See serve_api.h.
 */
#include "serve_api.h"

#include <jansson.h>
#include <stdlib.h>

#include "prom.h"

static char *serve_api_dump(json_t *o)
{
	char *text = json_dumps(o, JSON_INDENT(1));

	json_decref(o);
	return text;
}

char *serve_api_topology(const struct topo *t)
{
	json_t *o = json_object(), *socks = json_array(), *numa = json_array();
	char *xml;

	json_object_set_new(o, "source", json_string(t->source ? t->source : ""));
	for (int s = 0; s < t->nsockets; s++) {
		const struct topo_socket *ts = &t->sockets[s];
		json_t *so = json_object(), *cores = json_array(), *nodes = json_array();

		json_object_set_new(so, "index", json_integer(s));
		json_object_set_new(so, "os_id", json_integer(ts->os_id));
		for (int k = 0; k < ts->nnuma; k++)
			json_array_append_new(nodes, json_integer(t->numa[ts->numa[k]].os_node));
		json_object_set_new(so, "numa_nodes", nodes);
		for (int c = ts->core_first; c < ts->core_first + ts->ncores; c++) {
			const struct topo_core *tc = &t->cores[c];
			json_t *co = json_object(), *thr = json_array();

			json_object_set_new(co, "index", json_integer(c));
			json_object_set_new(co, "os_core_id", json_integer(tc->core_id));
			for (int h = tc->thread_first; h < tc->thread_first + tc->nthreads; h++) {
				json_t *th = json_object();

				json_object_set_new(th, "cpu", json_integer(t->threads[h].os_cpu));
				json_object_set_new(th, "online", json_boolean(t->threads[h].online));
				json_array_append_new(thr, th);
			}
			json_object_set_new(co, "threads", thr);
			json_array_append_new(cores, co);
		}
		json_object_set_new(so, "cores", cores);
		json_array_append_new(socks, so);
	}
	json_object_set_new(o, "sockets", socks);
	for (int n = 0; n < t->nnuma; n++) {
		json_t *no = json_object();

		json_object_set_new(no, "node", json_integer(t->numa[n].os_node));
		json_object_set_new(no, "socket", json_integer(t->numa[n].socket));
		if (t->numa[n].mem_total != TOPO_BYTES_UNKNOWN)
			json_object_set_new(no, "mem_total_bytes",
					    json_integer((json_int_t)t->numa[n].mem_total));
		json_array_append_new(numa, no);
	}
	json_object_set_new(o, "numa", numa);
	xml = topo_export_xml(t);
	json_object_set_new(o, "hwloc_xml", xml ? json_string(xml) : json_null());
	free(xml);
	return serve_api_dump(o);
}

char *serve_api_layout(const struct layout *l)
{
	json_t *o = json_object(), *groups = json_array(), *metrics = json_array();

	json_object_set_new(o, "name", json_string(l->name));
	json_object_set_new(o, "file", json_string(l->file ? l->file : ""));
	for (int g = 0; g < l->ngroups; g++) {
		const struct layout_group *lg = &l->groups[g];
		json_t *go = json_object(), *evs = json_array();
		char key[2] = { lg->key, 0 };

		json_object_set_new(go, "name", json_string(lg->name));
		json_object_set_new(go, "key", lg->key ? json_string(key) : json_null());
		json_object_set_new(go, "title", json_string(lg->title ? lg->title : ""));
		json_object_set_new(go, "help", json_string(lg->help ? lg->help : ""));
		json_object_set_new(go, "pmu", json_string(layout_pmu_kinds[lg->pmu].name));
		json_object_set_new(go, "default_on", json_boolean(lg->default_on));
		for (int e = lg->first_event; e < lg->first_event + lg->nevents; e++) {
			json_t *eo = json_object();

			json_object_set_new(eo, "name", json_string(l->events[e].name));
			json_object_set_new(eo, "spec", json_string(l->events[e].spec));
			json_array_append_new(evs, eo);
		}
		json_object_set_new(go, "events", evs);
		json_array_append_new(groups, go);
	}
	json_object_set_new(o, "groups", groups);
	for (int m = 0; m < l->nmetrics; m++) {
		const struct layout_metric *mt = &l->metrics[m];
		json_t *mo = json_object();
		char name[160];
		double f = prom_metric_name(l, m, name, sizeof(name));

		json_object_set_new(mo, "name", json_string(mt->name));
		json_object_set_new(mo, "unit", json_string(mt->unit));
		json_object_set_new(mo, "scope", json_string(layout_scope_names[mt->scope]));
		json_object_set_new(mo, "group", mt->group >= 0 ? json_string(l->groups[mt->group].name)
								: json_null());
		json_object_set_new(mo, "help", json_string(mt->help ? mt->help : ""));
		json_object_set_new(mo, "prometheus", json_string(name));
		json_object_set_new(mo, "prometheus_factor", json_real(f));
		json_array_append_new(metrics, mo);
	}
	json_object_set_new(o, "metrics", metrics);
	return serve_api_dump(o);
}
