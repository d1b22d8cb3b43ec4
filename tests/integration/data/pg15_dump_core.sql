--
-- PostgreSQL database dump
--

\restrict zHpjkd2tdMSCSSUh2ntfbyQd0agK2W4OCeWlBM39qfpqkvmq1vr0EQQXN9vLZcJ

-- Dumped from database version 15.18 (Debian 15.18-0+deb12u1)
-- Dumped by pg_dump version 15.18 (Debian 15.18-0+deb12u1)

SET statement_timeout = 0;
SET lock_timeout = 0;
SET idle_in_transaction_session_timeout = 0;
SET client_encoding = 'UTF8';
SET standard_conforming_strings = on;
SELECT pg_catalog.set_config('search_path', '', false);
SET check_function_bodies = false;
SET xmloption = content;
SET client_min_messages = warning;
SET row_security = off;

SET default_tablespace = '';

SET default_table_access_method = heap;

--
-- Name: customers; Type: TABLE; Schema: public; Owner: hearth
--

CREATE TABLE public.customers (
    id integer NOT NULL,
    email character varying(80) NOT NULL,
    name text DEFAULT 'anonymous'::text,
    country character(2) DEFAULT 'NL'::bpchar,
    balance numeric(12,2) DEFAULT 0,
    active boolean DEFAULT true,
    created timestamp with time zone DEFAULT now(),
    birthday date,
    score double precision,
    big bigint,
    small smallint,
    blob bytea
);


ALTER TABLE public.customers OWNER TO hearth;

--
-- Name: empty_table; Type: TABLE; Schema: public; Owner: hearth
--

CREATE TABLE public.empty_table (
    a integer,
    b text
);


ALTER TABLE public.empty_table OWNER TO hearth;

--
-- Name: invoice_no; Type: SEQUENCE; Schema: public; Owner: hearth
--

CREATE SEQUENCE public.invoice_no
    START WITH 1000
    INCREMENT BY 10
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


ALTER TABLE public.invoice_no OWNER TO hearth;

--
-- Name: orders; Type: TABLE; Schema: public; Owner: hearth
--

CREATE TABLE public.orders (
    order_no bigint DEFAULT nextval('public.invoice_no'::regclass) NOT NULL,
    customer_id integer NOT NULL,
    line smallint NOT NULL,
    amount numeric(10,2),
    status text DEFAULT 'new'::text NOT NULL,
    note text
);


ALTER TABLE public.orders OWNER TO hearth;

--
-- Data for Name: customers; Type: TABLE DATA; Schema: public; Owner: hearth
--

COPY public.customers (id, email, name, country, balance, active, created, birthday, score, big, small, blob) FROM stdin;
1	a@example.com	Ann	NL	10.50	t	2024-01-02 03:04:05+00	1990-05-06	1.5	9000000000	7	\\x00ff
2	b@example.com	\N	DE	-3.25	f	2024-02-03 04:05:06.123456+00	\N	\N	\N	\N	\N
3	c@example.com	tab\there, newline\nand backslash \\ and quote ' "	FR	0.00	\N	2023-12-31 23:59:59+00	2000-02-29	-0.000123	-1	-32768	\\x
4	d@example.com	Ünïcödé ✓	ES	99999.99	t	2024-03-04 00:00:00+00	\N	1e+300	0	0	\N
\.


--
-- Data for Name: empty_table; Type: TABLE DATA; Schema: public; Owner: hearth
--

COPY public.empty_table (a, b) FROM stdin;
\.


--
-- Data for Name: orders; Type: TABLE DATA; Schema: public; Owner: hearth
--

COPY public.orders (order_no, customer_id, line, amount, status, note) FROM stdin;
1020	1	1	3.50	paid	\N
1030	1	1	\N	new	second
1010	2	2	7.25	new	\N
\.


--
-- Name: invoice_no; Type: SEQUENCE SET; Schema: public; Owner: hearth
--

SELECT pg_catalog.setval('public.invoice_no', 1030, true);


--
-- Name: customers customers_email_key; Type: CONSTRAINT; Schema: public; Owner: hearth
--

ALTER TABLE ONLY public.customers
    ADD CONSTRAINT customers_email_key UNIQUE (email);


--
-- Name: customers customers_pkey; Type: CONSTRAINT; Schema: public; Owner: hearth
--

ALTER TABLE ONLY public.customers
    ADD CONSTRAINT customers_pkey PRIMARY KEY (id);


--
-- Name: orders orders_pkey; Type: CONSTRAINT; Schema: public; Owner: hearth
--

ALTER TABLE ONLY public.orders
    ADD CONSTRAINT orders_pkey PRIMARY KEY (order_no, line);


--
-- Name: customers_country_created_idx; Type: INDEX; Schema: public; Owner: hearth
--

CREATE INDEX customers_country_created_idx ON public.customers USING btree (country, created DESC);


--
-- Name: customers_name_idx; Type: INDEX; Schema: public; Owner: hearth
--

CREATE INDEX customers_name_idx ON public.customers USING btree (name);


--
-- Name: orders_customer_line_key; Type: INDEX; Schema: public; Owner: hearth
--

CREATE UNIQUE INDEX orders_customer_line_key ON public.orders USING btree (customer_id, order_no, line);


--
-- Name: orders_status_idx; Type: INDEX; Schema: public; Owner: hearth
--

CREATE INDEX orders_status_idx ON public.orders USING btree (status);


--
-- Name: TABLE customers; Type: ACL; Schema: public; Owner: hearth
--

GRANT SELECT ON TABLE public.customers TO reader;


--
-- Name: TABLE orders; Type: ACL; Schema: public; Owner: hearth
--

GRANT SELECT,INSERT ON TABLE public.orders TO reader;


--
-- PostgreSQL database dump complete
--

\unrestrict zHpjkd2tdMSCSSUh2ntfbyQd0agK2W4OCeWlBM39qfpqkvmq1vr0EQQXN9vLZcJ

